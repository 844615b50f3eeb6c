import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKnex, migrateLatest } from '@media-site/db';
import { OPERATOR_KEYS, OPERATOR_PROVIDER } from '../../bff/src/test/production-env';
import { freePort, spawnTs, waitHealthy, type Child } from '../../scripts/lib/process';
import { repoRoot } from '../../scripts/lib/site';

// The services as compose runs them (NODE_ENV=production): with the compose / .env.example values
// they exit 1 and say which variable and how to make one; with an operator's own values they start.

const KEYS = `k1:${OPERATOR_KEYS.a}`;
const COMPOSE_EXAMPLE_KEYS = 'k1:change-me-media-token-key-0123456789';
// A relay where nothing listens: the bff starts anyway, and mail waits in the outbox.
const OPERATOR_MAIL = {
  SMTP_URL: `smtp://relay:${randomBytes(18).toString('hex')}@127.0.0.1:9`,
  MAIL_FROM: '"Media Site" <no-reply@mail.media-site.test>',
};

const dataDir = mkdtempSync(join(tmpdir(), 'production-start-'));
const databaseUrl = `sqlite:${join(dataDir, 'catalog.sqlite')}`;
const children: Child[] = [];
beforeAll(async () => {
  mkdirSync(join(dataDir, 'media'));
  const knex = createKnex(databaseUrl);
  await migrateLatest(knex);
  await knex.destroy();
});
afterAll(async () => {
  await Promise.all(children.map((c) => c.stop(2000)));
  rmSync(dataDir, { recursive: true, force: true });
});

function run(service: 'bff' | 'media-service', env: NodeJS.ProcessEnv) {
  const lines: string[] = [];
  // Not vitest's NODE_ENV, nor its cheap password hashes (production refuses PASSWORD_HASH_LOG_N < 17).
  const { NODE_ENV: _vitest, PASSWORD_HASH_LOG_N: _cheap, ...inherited } = process.env;
  const child = spawnTs(
    service,
    join(repoRoot, service, 'src/main.ts'),
    { ...inherited, LOG_LEVEL: 'warn', REDIS_URL: '', ...env },
    (_, line) => lines.push(line),
  );
  children.push(child);
  return { child, lines };
}

describe('services started with NODE_ENV=production', () => {
  it('the media service exits on the compose example key and names the fix', async () => {
    const { child, lines } = run('media-service', {
      NODE_ENV: 'Production',
      MEDIA_TOKEN_KEYS: COMPOSE_EXAMPLE_KEYS,
      MEDIA_PORT: String(await freePort()),
      DATA_DIR: dataDir,
    });
    expect(await child.exited).toBe(1);
    expect(lines.join('\n')).toMatch(/MEDIA_TOKEN_KEYS: key "k1" is a value published in this repository.*openssl rand -base64 48/);
  });

  it('the media service starts with its own key', async () => {
    const port = await freePort();
    const { child } = run('media-service', {
      NODE_ENV: 'production',
      MEDIA_TOKEN_KEYS: KEYS,
      MEDIA_PORT: String(port),
      DATA_DIR: dataDir,
      MEDIA_REVOCATION_URL: 'http://127.0.0.1:9/internal/media-revocations',
    });
    await waitHealthy(`http://127.0.0.1:${port}/healthz`, child);
  });

  it('the bff exits on the compose defaults, listing each one', async () => {
    const { child, lines } = run('bff', {
      NODE_ENV: 'production',
      MEDIA_TOKEN_KEYS: COMPOSE_EXAMPLE_KEYS,
      TRUSTED_PROXIES: '127.0.0.1,::1,10.0.0.0/8,172.16.0.0/12,192.168.0.0/16',
      BFF_PORT: String(await freePort()),
      DATABASE_URL: databaseUrl,
    });
    expect(await child.exited).toBe(1);
    const text = lines.join('\n');
    for (const name of [
      'MEDIA_TOKEN_KEYS',
      'SIGNIN_KEYS',
      'ADMIN_SECRET_KEYS',
      'WEBHOOK_PROXY_SECRET',
      'TRUSTED_PROXIES',
      'CCBILL_BASE_URL',
      'CCBILL_CLIENT_ACCNUM',
      'CCBILL_FRONTEND_SECRET',
      'CCBILL_BACKEND_SECRET',
      'SITE_URL',
      'SMTP_URL',
      'MAIL_FROM',
    ]) {
      expect(text).toContain(`  ${name}: `);
    }
  });

  it("the bff exits on the tests' cheap password hashing (PASSWORD_HASH_LOG_N below 17)", async () => {
    const { child, lines } = run('bff', {
      NODE_ENV: ' Production',
      PASSWORD_HASH_LOG_N: '12',
      MEDIA_TOKEN_KEYS: KEYS,
      SIGNIN_KEYS: `s1:${OPERATOR_KEYS.signin}`,
      ADMIN_SECRET_KEYS: `a1:${OPERATOR_KEYS.admin}`,
      WEBHOOK_PROXY_SECRET: OPERATOR_KEYS.webhookProxy,
      TRUSTED_PROXIES: '172.30.0.10',
      SITE_URL: 'https://media.example.com',
      BFF_PORT: String(await freePort()),
      DATABASE_URL: databaseUrl,
      ...OPERATOR_MAIL,
      ...OPERATOR_PROVIDER,
    });
    expect(await child.exited).toBe(1);
    expect(lines.join('\n')).toMatch(/PASSWORD_HASH_LOG_N=12 is for tests only/);
  });

  it('the bff starts with an operator-set environment', async () => {
    const port = await freePort();
    const { child } = run('bff', {
      NODE_ENV: ' PRODUCTION',
      MEDIA_TOKEN_KEYS: KEYS,
      SIGNIN_KEYS: `s1:${OPERATOR_KEYS.signin}`,
      ADMIN_SECRET_KEYS: `a1:${OPERATOR_KEYS.admin}`,
      WEBHOOK_PROXY_SECRET: OPERATOR_KEYS.webhookProxy,
      TRUSTED_PROXIES: '172.30.0.10',
      SITE_URL: 'https://media.example.com',
      BFF_PORT: String(port),
      DATABASE_URL: databaseUrl,
      ...OPERATOR_MAIL,
      ...OPERATOR_PROVIDER,
    });
    await waitHealthy(`http://127.0.0.1:${port}/healthz`, child);
  });
});
