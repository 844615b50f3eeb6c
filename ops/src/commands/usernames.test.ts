import { afterEach, describe, expect, it } from 'vitest';
import { isUniqueViolation, migrateLatest, migrateUpTo } from '@media-site/db';
import { runOpsCaptured } from './registry';
import { memberNamed } from '@media-site/db/members';
import { createTestDb, testBackends, type TestDb } from '@media-site/db/testing';

const member = (username: string, id?: number) => ({
  ...(id ? { id } : {}),
  username,
  password_hash: 'x',
  email: '',
  created_at: Date.parse('2026-01-02T03:04:05Z'),
});

/** What inserting `row` into members threw (undefined: it went in). */
const insertError = (db: TestDb, row: ReturnType<typeof member>) =>
  db
    .knex('members')
    .insert(row)
    .then(
      () => undefined,
      (err: unknown) => err,
    );

// "DEMO" beside "demo" were once two accounts on SQLite. Usernames are unique in any letter
// case on both backends, and the bff and the operator CLI find them the same way.
describe.each(testBackends())('usernames in any letter case (%s)', (backend) => {
  const dbs: TestDb[] = [];
  afterEach(async () => {
    await Promise.all(dbs.splice(0).map((db) => db.destroy()));
  });

  it('refuses a second member whose name differs only in case, and finds either spelling', async () => {
    const db = await createTestDb(backend);
    dbs.push(db);
    await db.knex('members').insert(member('demo'));
    const clash = await insertError(db, member('DEMO'));
    expect(isUniqueViolation(clash)).toBe(true);
    expect((await memberNamed(db.knex, 'DeMo').first('username'))?.username).toBe('demo');
    expect(await memberNamed(db.knex, 'demo_').first('username')).toBeUndefined();
    const cli = await runOpsCaptured(['member', 'add', 'Demo', '--password', 'long enough'], { env: {}, knex: db.knex });
    expect(cli.code).toBe(1);
    if (backend === 'sqlite') {
      // The lookup uses the NOCASE index (no table scan).
      const plan: { detail: string }[] = await db.knex.raw(
        "EXPLAIN QUERY PLAN SELECT id FROM members WHERE username = 'DeMo' COLLATE NOCASE",
      );
      expect(plan.map((p) => p.detail).join(' ')).toMatch(/USING (COVERING )?INDEX members_username_nocase_unique/);
    }
  });

  it('migration 006 stops on names that differ only in case, listing them, and applies once they are renamed', async () => {
    const db = await createTestDb(backend, { migrate: false });
    dbs.push(db);
    await migrateUpTo(db.knex, '005_member_disable');
    // A MySQL database created with a case-sensitive collation held the same clashes SQLite did.
    if (backend === 'mysql')
      await db.knex.raw('ALTER TABLE members MODIFY username varchar(15) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL');
    await db.knex('members').insert([member('demo', 1), member('DEMO', 2), member('Other', 3), member('other', 4), member('solo', 5)]);

    const failure = await migrateLatest(db.knex).then(
      () => undefined,
      (err: unknown) => err as Error,
    );
    expect(failure?.message).toMatch(
      /differ only in case: id 1 "demo" \(created 2026-01-02T03:04:05.000Z\), id 2 "DEMO" .*, id 3 "Other" .*, id 4 "other"/,
    );
    expect(failure?.message).not.toContain('solo');
    expect(failure?.message).toMatch(/UPDATE members SET username/);

    await db.knex('members').where({ id: 2 }).update({ username: 'demo2' });
    await db.knex('members').where({ id: 4 }).update({ username: 'other2' });
    expect((await migrateLatest(db.knex))[0]).toBe('006_username_nocase');
    const clash = await insertError(db, member('SOLO'));
    expect(isUniqueViolation(clash)).toBe(true);
    expect((await memberNamed(db.knex, 'SOLO').first('id'))?.id).toBe(5);
  });
});
