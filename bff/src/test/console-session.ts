import { expect } from 'vitest';
import { totpCode } from '@media-site/db/admin';
import { runOpsCaptured } from '@media-site/ops/cli';
import { ORIGIN, type AccountKit } from './account-kit';
import { cookieHeader, setCookies } from './cookies';

/** Adds an admin with `ops admin add` and signs it in with a TOTP code: its console cookie header. */
export async function consoleSession(kit: AccountKit, name: string, role: 'owner' | 'moderator' | 'support'): Promise<string> {
  const added = await runOpsCaptured(['admin', 'add', name, '--role', role], {
    env: { USER: 'tester' },
    knex: kit.db.knex,
    now: () => kit.deps.now(),
  });
  expect(added.code, added.err).toBe(0);
  const secret = /secret: (\S+)/.exec(added.out)?.[1] ?? '';
  const res = await kit.request
    .post('/api/admin/signin/totp')
    .set('Origin', ORIGIN)
    .send({ name, code: totpCode(secret, kit.deps.now()) });
  expect(res.status).toBe(200);
  return cookieHeader(setCookies(res).filter((c) => c.startsWith('admin_sid=')));
}
