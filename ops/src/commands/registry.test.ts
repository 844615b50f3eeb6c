import { describe, expect, it } from 'vitest';
import { useTestDb } from '@media-site/db/testing';
import { runOpsCaptured } from './registry';

// `ops <group> <command>` and the bare `<command>` (the old `catalog` entry) reach the same command.
describe('ops command groups', () => {
  const db = useTestDb('sqlite');
  const cli = (...argv: string[]) => runOpsCaptured(argv, { env: {}, knex: db.knex });

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

  it('reaches a content restore and a backup restore by their own names', async () => {
    expect((await cli('restore', '/video/nothing-here', '--by', 'x', '--reason', 'y')).err).toMatch(/video|not found|no /i);
    expect((await cli('restore-backup', 'latest', '--from', '/nonexistent-backups')).err).toMatch(
      /no finished set in \/nonexistent-backups/,
    );
  });
});
