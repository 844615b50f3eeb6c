import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importsOf, repoRoot, sourceFiles, violation } from './graph.mjs';

const at = (path) => join(repoRoot, path);

describe('workspace boundaries', () => {
  it('refuses the arrows that go the wrong way', () => {
    expect(violation(at('db/src/index.ts'), '@media-site/media-service/config')).toMatch(/db must not import media-service/);
    expect(violation(at('media-service/src/members.ts'), '@media-site/bff/config')).toMatch(/media-service must not import bff/);
    expect(violation(at('bff/src/app.ts'), '@media-site/media-service/config')).toMatch(/bff must not import media-service/);
    // The media service reads originals (storage), never the catalog database.
    expect(violation(at('media-service/src/members.ts'), '@media-site/db')).toMatch(/media-service must not import db/);
    expect(violation(at('storage/src/s3.ts'), '@media-site/db')).toMatch(/storage must not import db/);
    expect(violation(at('contracts/src/token.ts'), '@media-site/db')).toMatch(/contracts must not import db/);
    expect(violation(at('bff/src/routes/api/auth/service.ts'), '../../../../../db/src/members/accounts')).toMatch(/relative path/);
    expect(violation(at('bff/src/app.ts'), '@media-site/simulator')).toMatch(/bff must not import simulator/);
    expect(violation(at('frontend/src/app/App.tsx'), '@media-site/db')).toMatch(/frontend must not import db/);
    // One workspace per process: the bff image carries neither the encoder (sharp) nor ingest (the S3 client).
    expect(violation(at('bff/src/app.ts'), '@media-site/ops/cli')).toMatch(/bff must not import ops/);
    expect(violation(at('bff/src/app.ts'), '@media-site/encoder')).toMatch(/bff must not import encoder/);
    expect(violation(at('db/src/index.ts'), '@media-site/storage')).toMatch(/db must not import storage/);
    expect(violation(at('db/src/index.ts'), '@media-site/encoder')).toMatch(/db must not import encoder/);
    expect(violation(at('encoder/src/worker.ts'), '@media-site/ops')).toMatch(/encoder must not import ops/);
    expect(violation(at('encoder/src/worker.ts'), '@media-site/bff')).toMatch(/encoder must not import bff/);
    // The operator CLI settles payments through db's payments module, as the bff does: no route folder of the bff.
    expect(violation(at('ops/src/commands/payments.ts'), '@media-site/bff')).toMatch(/ops must not import bff/);
    expect(violation(at('ops/src/commands/registry.test.ts'), '@media-site/bff/config')).toMatch(/ops must not import bff/);
    // The SPA takes browser-safe contracts; the token module (node:crypto) only as types.
    expect(violation(at('frontend/src/app/App.tsx'), '@media-site/contracts/token')).toMatch(/browser-safe/);
    expect(violation(at('frontend/src/app/App.tsx'), '@media-site/contracts/token', true)).toBeUndefined();
  });

  it('lets the allowed arrows through', () => {
    expect(violation(at('ops/src/commands/registry.ts'), '@media-site/contracts/download-name')).toBeUndefined();
    expect(violation(at('media-service/src/members.ts'), '@media-site/storage')).toBeUndefined();
    expect(violation(at('ops/src/commands/registry.ts'), '@media-site/storage')).toBeUndefined();
    expect(violation(at('bff/src/app.ts'), '@media-site/db')).toBeUndefined();
    expect(violation(at('bff/src/routes/api/payments/test-kit.ts'), '@media-site/simulator')).toBeUndefined();
    expect(violation(at('bff/src/routes/api/auth/usernames.test.ts'), '@media-site/ops/cli')).toBeUndefined();
    expect(violation(at('ops/src/commands/encode.ts'), '@media-site/encoder')).toBeUndefined();
    expect(violation(at('encoder/src/worker.ts'), '@media-site/db/encode')).toBeUndefined();
    // STORAGE=s3: the encoder downloads originals from and uploads its outputs to the bucket.
    expect(violation(at('encoder/src/worker.ts'), '@media-site/storage')).toBeUndefined();
    expect(violation(at('frontend/src/features/payment/chain.ts'), '@media-site/contracts/provider')).toBeUndefined();
    expect(violation(at('tests/integration/x.test.ts'), '../../media-service/src/files/send')).toBeUndefined();
    expect(violation(at('bff/src/app.ts'), 'koa')).toBeUndefined();
  });

  it('finds no forbidden arrow in the repository', () => {
    const problems = sourceFiles().flatMap((file) =>
      importsOf(file)
        .map(({ specifier, typeOnly }) => violation(file, specifier, typeOnly) && `${file}: ${specifier}`)
        .filter(Boolean),
    );
    expect(problems).toEqual([]);
  });
});
