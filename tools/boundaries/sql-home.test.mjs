import { join } from 'node:path';
import { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './graph.mjs';
import { SQL_EXCEPTIONS, sqlAllowedIn } from './sql-home.mjs';
import boundaries from './eslint-rule.mjs';

const at = (path) => join(repoRoot, path);

/** The messages `boundaries/sql-home` gives for `code` as the file `path`. */
function lint(path, code) {
  const linter = new Linter({ cwd: repoRoot });
  const config = [{ files: ['**/*.ts'], plugins: { boundaries }, rules: { 'boundaries/sql-home': 'error' } }];
  return linter.verify(code, config, { filename: at(path) }).map((m) => m.message);
}

describe('where SQL lives', () => {
  it('allows queries in db/, in repository.ts files and in test code', () => {
    expect(sqlAllowedIn(at('db/src/content/takedowns.ts'))).toBe(true);
    expect(sqlAllowedIn(at('bff/src/routes/api/photos/repository.ts'))).toBe(true);
    expect(sqlAllowedIn(at('bff/src/account/repository.ts'))).toBe(true);
    expect(sqlAllowedIn(at('bff/src/routes/api/photos/photos.test.ts'))).toBe(true);
    expect(sqlAllowedIn(at('bff/src/test/fixtures.ts'))).toBe(true);
    expect(sqlAllowedIn(at('tests/e2e/admin-reports.test.ts'))).toBe(true);
  });

  it('refuses them in handlers, services and workers', () => {
    expect(sqlAllowedIn(at('bff/src/routes/api/photos/service.ts'))).toBe(false);
    expect(sqlAllowedIn(at('bff/src/routes/api/payments/routes.ts'))).toBe(false);
    expect(sqlAllowedIn(at('bff/src/health.ts'))).toBe(false);
    expect(sqlAllowedIn(at('encoder/src/worker.ts'))).toBe(false);
    expect(sqlAllowedIn(at('front-follower/src/follow.ts'))).toBe(false);
    expect(sqlAllowedIn(at('ops/src/commands/payments.ts'))).toBe(false);
  });

  it('lists each known exception with its reason', () => {
    for (const e of SQL_EXCEPTIONS) expect(e.why.length).toBeGreaterThan(20);
    expect(sqlAllowedIn(at('ops/src/seed/tables.ts'))).toBe(true);
  });

  it('reports a query built outside a repository, and only a query', () => {
    const service = 'bff/src/routes/api/x/service.ts';
    expect(lint(service, "export const f = (knex) => knex('members').where({ id: 1 }).first();")).toHaveLength(1);
    expect(lint(service, "export const f = (deps) => deps.knex('members').first();")).toHaveLength(1);
    expect(lint(service, "export const f = (trx) => trx('members').delete();")).toHaveLength(1);
    expect(lint(service, "export const f = (db) => db.raw('select 1');")).toHaveLength(1);
    expect(lint(service, "export const f = (o) => o.options.knex('media_jobs').first('id');")).toHaveLength(1);
    expect(lint(service, "export const f = (deps) => deps.knex.raw('select 1');")).toHaveLength(1);
    expect(lint(service, "export const f = (knex) => knex.select('id').from('vods');")).toHaveLength(1);
    expect(lint(service, 'export const f = (deps, g) => deps.knex.transaction((trx) => g(trx));')).toEqual([]);
    expect(lint(service, 'export const f = (knex) => knex.destroy();')).toEqual([]);
    expect(lint(service, "export const f = (list) => list.where('x');")).toEqual([]);
    expect(lint('bff/src/routes/api/x/repository.ts', "export const f = (knex) => knex('members').first();")).toEqual([]);
    expect(lint(service, "export const f = (knex) => knex('members').first();")[0]).toMatch(/repository\.ts|db\/src/);
  });
});
