// ESLint rule `boundaries/workspace-imports`: an import whose arrow between workspaces is not in
// graph.mjs's table is an error, so `npm run lint` (and so `npm test`) fails when one goes the
// wrong way.
import { violation } from './graph.mjs';

const rule = {
  meta: {
    type: 'problem',
    docs: { description: 'Imports between workspaces follow the allowed directions (tools/boundaries/graph.mjs)' },
    schema: [],
  },
  create(context) {
    const check = (node, source, typeOnly) => {
      if (!source || typeof source.value !== 'string') return;
      const why = violation(context.filename, source.value, typeOnly);
      if (why) context.report({ node: source, message: why });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source, node.importKind === 'type'),
      ExportNamedDeclaration: (node) => check(node, node.source, node.exportKind === 'type'),
      ExportAllDeclaration: (node) => check(node, node.source, node.exportKind === 'type'),
      ImportExpression: (node) => check(node, node.source, false),
    };
  },
};

export default { rules: { 'workspace-imports': rule } };
