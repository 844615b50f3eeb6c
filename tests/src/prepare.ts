import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { showcaseClips } from '@media-site/ops/showcase-clips';
import { buildFrontendIfNeeded } from '../../scripts/lib/prepare';
import { prepareStackSources } from './stack';

// What every cross-service stack copies, made ahead of the suite: better-sqlite3's addon for this
// Node, the SPA build and the seeded demo template. `npm test` (tools/ci/test.sh) runs this beside
// typecheck and lint; the tests project's global setup then finds them made. The addon's first
// build (a minute of C on one core) is what the template waits for (it writes a SQLite catalog),
// so the showcase clips (ffmpeg) and the SPA build are made meanwhile. Nothing here opens a
// database before the addon is this Node's. By hand: node --import tsx tests/src/prepare.ts
const addon = new Promise<void>((resolve, reject) => {
  const script = fileURLToPath(new URL('../../tools/node/native-addon.mjs', import.meta.url));
  spawn(process.execPath, [script], { stdio: 'inherit' }).on('exit', (code) =>
    code === 0 ? resolve() : reject(new Error(`native-addon.mjs exited ${code}`)),
  );
});
const clips = showcaseClips();
buildFrontendIfNeeded(console.log);
await Promise.all([addon, clips]);
await prepareStackSources(console.log);
