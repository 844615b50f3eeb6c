import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '@media-site/db/testing';
import { runOpsCommand } from '../src/commands/registry';

// `ops <group> <command>` and the bare `<command>` (the old `catalog` entry) reach the same command.
describe('ops command groups', () => {
  let db: TestDb;
  async function cli(...argv: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runOpsCommand(argv, { env: {}, knex: db.knex, out: (s) => out.push(s), err: (s) => err.push(s) });
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  beforeAll(async () => {
    db = await createTestDb('sqlite');
  });
  afterAll(async () => {
    await db?.destroy();
  });

  it('drops a leading group name, and a group of one command stands for it', async () => {
    expect(await cli('catalog', 'stats', '--json')).toEqual(await cli('stats', '--json'));
    expect(await cli('encode', 'jobs', '--json')).toEqual(await cli('jobs', '--json'));
    expect(await cli('members', 'list')).toEqual(await cli('member', 'list'));
    expect(await cli('payments', 'list')).toEqual(await cli('reconcile', 'list'));
    expect(await cli('payments', 'reconcile', 'list')).toMatchObject({ code: 0, out: '0 open attempt(s)' });
  });

  it('keeps a command named like its group (encode, reports) and refuses a group alone', async () => {
    expect(await cli('reports', 'list', '--json')).toMatchObject({ code: 0, out: '[]' });
    expect((await cli('encode', '--concurrency', '0')).err).toMatch(/--concurrency must be/);
    const catalog = await cli('catalog');
    expect(catalog.code).toBe(2);
    expect(catalog.err).toMatch(/unknown command: catalog/);
  });
});
