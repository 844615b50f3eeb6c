import { STATUS_CODES } from 'node:http';
import { z } from 'zod';
import { ERROR_STATUS, type ErrorCode } from '@media-site/contracts/errors';
import { COMPONENTS } from './components';
import { ALWAYS, type Operation, type Resource } from './operation';
import { RESOURCES } from './resources';

// The OpenAPI 3.1 document of every /api route, written from the zod schemas the routes validate
// with and the shared answer schemas (contracts/) they build their answers as. Named answer schemas
// become components/schemas; everything else is inlined where it is used. GET /api/openapi.json
// serves it; bff/openapi.json is its checked-in copy (`npm run docs:openapi`, compared by lint).

type Json = Record<string, unknown>;
type Io = 'input' | 'output';

const SCHEMAS = '#/components/schemas/';
const names = z.registry<{ id: string }>();
for (const [id, schema] of Object.entries(COMPONENTS)) names.add(schema, { id });

/** The JSON Schema of `schema`, its named parts moved into `components` and referred to there. */
function jsonSchema(schema: z.ZodType, io: Io, components: Map<string, string>): Json {
  const out = z.toJSONSchema(schema, {
    metadata: names,
    io,
    unrepresentable: 'any',
    // `.describe()` texts live in zod's global registry; ids in ours.
    override: ({ zodSchema, jsonSchema: js }) => {
      const description = z.globalRegistry.get(zodSchema)?.description;
      if (description && js.description === undefined) js.description = description;
      // A JSON Schema pattern has no flags: a case-insensitive or multi-line regex would be described wrong.
      for (const check of (zodSchema._zod.def as { checks?: Array<{ _zod: { def: { pattern?: unknown } } }> }).checks ?? []) {
        const pattern = check._zod.def.pattern;
        if (pattern instanceof RegExp && /[ims]/.test(pattern.flags))
          throw new Error(`${String(pattern)}: write its flags into the pattern`);
      }
      // zod's .int() bounds every integer to the safe range: true of any JSON number worth sending.
      if (js.minimum === Number.MIN_SAFE_INTEGER) delete js.minimum;
      if (js.maximum === Number.MAX_SAFE_INTEGER) delete js.maximum;
    },
  }) as Json;
  const { $schema: _, $defs, ...rest } = out;
  for (const [id, def] of Object.entries(($defs ?? {}) as Record<string, Json>)) {
    const text = JSON.stringify(def).replaceAll('"#/$defs/', `"${SCHEMAS}`);
    const known = components.get(id);
    if (known !== undefined && known !== text) throw new Error(`component ${id} differs between its uses (${io})`);
    components.set(id, text);
  }
  return JSON.parse(JSON.stringify(rest).replaceAll('"#/$defs/', `"${SCHEMAS}`)) as Json;
}

const paramNames = (path: string) => [...path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
export const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

function operationId(op: Operation): string {
  const words = op.path
    .replace(/^\/api\//, '')
    .split(/[/._-]/)
    .filter(Boolean)
    .map((w) => (w.startsWith(':') ? `by ${w.slice(1)}` : w));
  // `post /api/admin/members/:username/extend` → postAdminMembersByUsernameExtend
  const upper = (w: string) => w[0]!.toUpperCase() + w.slice(1);
  return (
    op.method +
    words
      .flatMap((w) => w.split(' '))
      .map(upper)
      .join('')
  );
}

function parameters(op: Operation, components: Map<string, string>): Json[] {
  const names = paramNames(op.path);
  for (const name of Object.keys(op.params ?? {})) {
    if (!names.includes(name)) throw new Error(`${op.method} ${op.path}: no path parameter :${name}`);
  }
  const inPath = names.map((name) => {
    const schema = op.params?.[name];
    return { name, in: 'path', required: true, schema: schema ? jsonSchema(schema, 'input', components) : { type: 'string' } };
  });
  if (!op.query) return inPath;
  const query = jsonSchema(op.query, 'input', components);
  const required = new Set((query.required ?? []) as string[]);
  const inQuery = Object.entries((query.properties ?? {}) as Record<string, Json>).map(([name, schema]) => ({
    name,
    in: 'query',
    required: required.has(name),
    schema,
  }));
  return [...inPath, ...inQuery];
}

const json = (schema: Json) => ({ 'application/json': { schema } });

function responses(op: Operation, components: Map<string, string>, errors: Map<string, Json>): Json {
  const out: Json = {};
  for (const [status, answer] of Object.entries(op.answers)) {
    const description = STATUS_CODES[Number(status)] ?? status;
    if (answer === null || answer === undefined) out[status] = { description };
    else if ('mediaType' in answer) out[status] = { description, content: { [answer.mediaType]: { schema: { type: 'string' } } } };
    else out[status] = { description, content: json(jsonSchema(answer, 'output', components)) };
  }
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set([...op.errors, ...ALWAYS])) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    const name = codes.sort().join('-or-');
    errors.set(name, { description: `error code: ${codes.join(', ')}`, content: json({ $ref: `${SCHEMAS}ErrorBody` }) });
    out[String(status)] = { $ref: `#/components/responses/${name}` };
  }
  return out;
}

function operation(op: Operation, tag: string, components: Map<string, string>, errors: Map<string, Json>): Json {
  const out: Json = { operationId: operationId(op), tags: [tag], summary: op.summary };
  const params = parameters(op, components);
  if (params.length > 0) out.parameters = params;
  if (op.body) {
    const schema = jsonSchema(op.body, 'input', components);
    const mediaType = op.form ? 'application/x-www-form-urlencoded' : 'application/json';
    out.requestBody = { required: !op.body.safeParse({}).success, content: { [mediaType]: { schema } } };
  }
  out.responses = responses(op, components, errors);
  if (op.session) {
    const scheme = { [op.session === 'admin' ? 'adminSession' : 'memberSession']: [] };
    out.security = op.session === 'member-or-visitor' ? [{}, scheme] : [scheme];
  }
  return out;
}

export function buildDocument(resources: readonly Resource[] = RESOURCES): Json {
  const components = new Map<string, string>();
  // The error answers by their codes: one response each, referred to by every route that gives it.
  const errors = new Map<string, Json>();
  jsonSchema(COMPONENTS.ErrorBody, 'output', components);
  const paths: Record<string, Json> = {};
  for (const resource of resources) {
    for (const op of resource.operations) {
      const path = openApiPath(op.path);
      const item = (paths[path] ??= {});
      if (item[op.method]) throw new Error(`${op.method} ${op.path} is described twice`);
      item[op.method] = operation(op, resource.tag, components, errors);
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Members site API (bff)',
      version: '1',
      description:
        'Every /api route of the bff. Errors are `{ "error": { "code", "message" } }` with the status of their code. Written from the zod schemas the bff validates with: `npm run docs:openapi`.',
    },
    tags: resources.map((r) => ({ name: r.tag, description: r.description })),
    paths,
    components: {
      schemas: Object.fromEntries([...components].sort(([a], [b]) => a.localeCompare(b)).map(([id, text]) => [id, JSON.parse(text)])),
      responses: Object.fromEntries([...errors].sort(([a], [b]) => a.localeCompare(b))),
      securitySchemes: {
        memberSession: { type: 'apiKey', in: 'cookie', name: 'sid', description: 'A member session (POST /api/login).' },
        adminSession: { type: 'apiKey', in: 'cookie', name: 'admin_sid', description: 'A console session (POST /api/admin/signin/...).' },
      },
    },
  };
}

let built: { document: Json; text: string; compact: string } | undefined;

function document() {
  if (!built) {
    const doc = buildDocument();
    built = { document: doc, text: `${JSON.stringify(doc, null, 2)}\n`, compact: JSON.stringify(doc) };
  }
  return built;
}

/** The document as checked in (bff/openapi.json): two-space JSON and a final newline. */
export const openApiText = (): string => document().text;

/** The document as served: the same, without the white space. */
export const openApiBody = (): string => document().compact;
