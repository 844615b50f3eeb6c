import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openApiText } from '@media-site/bff/openapi';
import { repoRoot } from '@media-site/contracts/embedded-defaults';

// bff/openapi.json, the checked-in copy of what GET /api/openapi.json serves, written from the
// routes' zod schemas (bff/src/routes/api/openapi/): `npm run docs:openapi` writes it, `--check`
// (in `npm run lint`) fails when the file differs from what the schemas say.

const OUT = join(repoRoot, 'bff/openapi.json');
const text = openApiText();

if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(OUT, 'utf8');
  } catch {
    // missing counts as stale
  }
  if (current !== text) {
    console.error('openapi-docs: bff/openapi.json is stale; run `npm run docs:openapi`');
    process.exit(1);
  }
} else {
  writeFileSync(OUT, text);
  console.log(`openapi-docs: wrote ${OUT}`);
}
