import { beforeAll, describe, expect, it } from 'vitest';
import { runOpsCaptured } from './registry';
import { readGeneration } from '@media-site/db';
import { EXPORT_COLUMNS } from './reports-export';
import { hiddenContentIds } from '@media-site/db/content';
import { insertReport } from '@media-site/db/moderation';
import { testBackends, useTestDb } from '@media-site/db/testing';

const t = (iso: string) => Date.parse(iso);

describe.each(testBackends())('reports and takedowns through the catalog CLI (%s)', (backend) => {
  const db = useTestDb(backend);
  let clock = t('2026-11-09T12:00:00Z');

  const cli = (...argv: string[]) => runOpsCaptured(argv, { env: {}, knex: db.knex, now: () => clock });

  beforeAll(async () => {
    const [modelId] = await db.knex('models').insert({ modelname: 'Model A1', initial: 'M', thumbnail: null });
    const row = { updatename: 'Set', modelname: 'Model A1', model_id: modelId, datetoupload: '2026-10-01', search_text: 'set\nmodel a1' };
    await db.knex('photosets').insert({ ...row, path: 'set-one' });
    await db.knex('videos').insert({ ...row, path: 'clip-one', prename: 'clip' });
    await db.knex('vods').insert({ ...row, path: 'set-one', prename: 'vod', format: 0, price: '9.99' });
    await db.knex('freephotosets').insert({ path: 'set-one', updatename: 'Free', datetoupload: '2026-10-01' });
    const base = { contentUrl: '/video/clip-one', details: 'details', email: null };
    await insertReport(db.knex, { ...base, reference: 'R-000000000A', reason: 'no_consent', now: t('2026-11-02T10:00:00Z') });
    await insertReport(db.knex, {
      ...base,
      reference: 'R-000000000B',
      reason: 'copyright',
      now: t('2026-11-09T08:00:00Z'),
      email: 'a@example.com',
    });
    await insertReport(db.knex, {
      ...base,
      reference: 'R-000000000C',
      reason: 'underage',
      contentUrl: '=HYPERLINK("x")',
      now: t('2026-11-30T23:59:59Z'),
    });
    await insertReport(db.knex, { ...base, reference: 'R-000000000D', reason: 'other', now: t('2026-12-01T00:00:00Z') });
  });

  it('lists open reports with deadlines, overdue ones first', async () => {
    const res = await cli('reports', 'list', '--json');
    expect(res.code).toBe(0);
    const list = JSON.parse(res.out) as Array<{ reference: string; overdue: string[]; resolveBy: string; acknowledgeBy: string }>;
    expect(list.map((r) => r.reference)).toEqual(['R-000000000A', 'R-000000000B', 'R-000000000C', 'R-000000000D']);
    expect(list[0]).toMatchObject({ overdue: ['acknowledge'], acknowledgeBy: '2026-11-04T10:00:00Z', resolveBy: '2026-11-12T00:00:00Z' });
    expect(list[1]!.overdue).toEqual([]);
    const text = await cli('reports', 'list');
    expect(text.out).toMatch(/R-000000000A {2}no_consent {2}\/video\/clip-one/);
    expect(text.out).toMatch(/OVERDUE: acknowledge/);
  });

  it('acknowledges, resolves, records and decides an appeal; closed reports leave the queue', async () => {
    expect((await cli('reports', 'ack', 'R-000000000A', '--by', 'ops')).code).toBe(0);
    expect((await cli('reports', 'ack', 'R-000000000A', '--by', 'ops')).code).toBe(1);
    const bad = await cli('reports', 'resolve', 'R-000000000A', '--outcome', 'deleted', '--note', 'x', '--by', 'ops');
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--outcome must be one of removed, restricted, edited, no_action/);
    expect((await cli('reports', 'resolve', 'R-000000000A', '--outcome', 'removed', '--by', 'ops')).err).toMatch(/--note is required/);
    clock = t('2026-11-10T09:00:00Z');
    const resolved = await cli('reports', 'resolve', 'R-000000000A', '--outcome', 'removed', '--note', 'no release on file', '--by', 'ops');
    expect(resolved.code).toBe(0);
    expect(resolved.out).toMatch(/outcome removed \(ops\)/);
    let open = JSON.parse((await cli('reports', 'list', '--json')).out) as Array<{ reference: string; appealDecideBy?: string }>;
    expect(open.map((r) => r.reference)).not.toContain('R-000000000A');
    expect((await cli('reports', 'decide', 'R-000000000A', '--decision', 'upheld', '--note', 'n', '--by', 'lead')).code).toBe(1);
    expect((await cli('reports', 'appeal', 'R-000000000A', '--text', 'I have a release form', '--email', 'x@example.com')).code).toBe(0);
    expect((await cli('reports', 'appeal', 'R-000000000A', '--text', 'again')).code).toBe(1);
    open = JSON.parse((await cli('reports', 'list', '--json')).out) as typeof open;
    expect(open.find((r) => r.reference === 'R-000000000A')?.appealDecideBy).toBe('2026-12-01T00:00:00Z');
    clock = t('2026-11-20T09:00:00Z');
    expect(
      (await cli('reports', 'decide', 'R-000000000A', '--decision', 'upheld', '--note', 'release not valid', '--by', 'lead')).code,
    ).toBe(0);
    const shown = JSON.parse((await cli('reports', 'show', 'R-000000000A', '--json')).out) as Record<string, unknown>;
    expect(shown).toMatchObject({
      outcome: 'removed',
      appeal_decision: 'upheld',
      appeal_decided_by: 'lead',
      appeal_email: 'x@example.com',
    });
    expect((await cli('reports', 'show', 'R-NOPE')).code).toBe(1);
    expect((await cli('reports', 'frobnicate')).code).toBe(2);
  });

  it('takedown and restore need --by and --reason, log both and bump the generation', async () => {
    expect((await cli('takedown', '/video/clip-one', '--by', 'ops')).err).toMatch(/--reason is required/);
    expect((await cli('takedown', '/video/nope', '--by', 'ops', '--reason', 'r')).code).toBe(1);
    expect((await cli('takedown', '/nothing/here', '--by', 'ops', '--reason', 'r')).code).toBe(2);
    const before = await readGeneration(db.knex);
    const down = await cli(
      'takedown',
      'https://site.example/video/clip-one',
      '--by',
      'ops',
      '--reason',
      'no consent on file',
      '--report',
      'R-000000000A',
    );
    expect(down.code).toBe(0);
    expect(down.out).toMatch(/taken down: video clip-one/);
    expect(await readGeneration(db.knex)).toBe(before + 1);
    expect((await cli('takedown', '/video/clip-one', '--by', 'ops', '--reason', 'again')).code).toBe(1);
    // The photo set and VOD share a folder name; only the named type goes down.
    expect((await cli('takedown', '/members/photos/set-one/01.jpg', '--by', 'ops', '--reason', 'dmca')).code).toBe(0);
    const hidden = await hiddenContentIds(db.knex);
    expect(hidden.videos).toHaveLength(1);
    expect(hidden.photosets).toHaveLength(1);
    expect(hidden.vods).toEqual([]);
    expect(hidden.freephotosets).toEqual([]);
    expect((await cli('takedowns')).out).toMatch(/video clip-one/);
    expect((await cli('restore', '/photos/set-one', '--by', 'lead', '--reason', 'licence shown')).code).toBe(0);
    expect((await cli('restore', '/photos/set-one', '--by', 'lead', '--reason', 'twice')).code).toBe(1);
    expect((await hiddenContentIds(db.knex)).photosets).toEqual([]);
    // Free photo sets (their own table and media family) go down and come back the same way.
    const free = await cli('takedown', '/freephotos/set-one', '--by', 'ops', '--reason', 'no release');
    expect(free.out).toMatch(/taken down: freephotoset set-one/);
    expect((await hiddenContentIds(db.knex)).freephotosets).toHaveLength(1);
    expect((await cli('takedowns')).out).toMatch(/freephotoset set-one/);
    expect(
      (await cli('restore', 'https://site.example/members/freephotos/set-one/01.jpg', '--by', 'lead', '--reason', 'release found')).code,
    ).toBe(0);
    expect((await hiddenContentIds(db.knex)).freephotosets).toEqual([]);
    const log = JSON.parse((await cli('takedowns', '--log', '--json')).out) as Array<Record<string, unknown>>;
    expect(log.map((l) => [l.action, l.content_type, l.path, l.actor, l.reason, l.report_reference])).toEqual([
      ['takedown', 'video', 'clip-one', 'ops', 'no consent on file', 'R-000000000A'],
      ['takedown', 'photoset', 'set-one', 'ops', 'dmca', null],
      ['restore', 'photoset', 'set-one', 'lead', 'licence shown', null],
      ['takedown', 'freephotoset', 'set-one', 'ops', 'no release', null],
      ['restore', 'freephotoset', 'set-one', 'lead', 'release found', null],
    ]);
  });

  it('exports one month of reports with the documented columns', async () => {
    clock = t('2026-12-02T00:00:00Z');
    const res = await cli('reports', 'export', '--month', '2026-11');
    expect(res.code).toBe(0);
    const lines = res.out.split('\r\n');
    expect(lines[0]).toBe(
      'reference,received_at,content_url,content_type,content_path,reason,reporter_contact,acknowledge_due,acknowledged_at,acknowledged_on_time,resolve_due,resolved_at,resolved_on_time,outcome,appealed_at,appeal_due,appeal_decided_at,appeal_on_time,appeal_decision,status',
    );
    expect(lines[0]!.split(',')).toEqual([...EXPORT_COLUMNS]);
    expect(lines).toHaveLength(4);
    expect(lines[1]).toBe(
      'R-000000000A,2026-11-02T10:00:00.000Z,/video/clip-one,video,clip-one,no_consent,no,2026-11-04T10:00:00.000Z,2026-11-09T12:00:00.000Z,no,2026-11-12T00:00:00.000Z,2026-11-10T09:00:00.000Z,yes,removed,2026-11-10T09:00:00.000Z,2026-12-01T00:00:00.000Z,2026-11-20T09:00:00.000Z,yes,upheld,appeal_decided',
    );
    expect(lines[2]).toMatch(/^R-000000000B,.*,copyright,yes,.*,overdue,.*,overdue,,,,,,,received$/);
    // A formula-looking URL is neutralised and quoted.
    expect(lines[3]).toMatch(/^R-000000000C,2026-11-30T23:59:59\.000Z,"'=HYPERLINK\(""x""\)",,,underage,/);
    expect((await cli('reports', 'export', '--month', '2026-13')).code).toBe(2);
  });

  it("records `reports list` and `show` (reporters' addresses) as reads by cli:<user>; the export names no one", async () => {
    const since = Number((await db.knex('admin_audit').max({ id: 'id' }).first())?.id ?? 0);
    const as = (...argv: string[]) => runOpsCaptured(argv, { env: { USER: 'carol' }, knex: db.knex, now: () => clock });
    const list = await as('reports', 'list');
    expect(list.out).toContain('from a@example.com');
    expect((await as('reports', 'show', 'R-000000000B', '--json')).code).toBe(0);
    expect((await as('reports', 'show', 'R-NOPE')).code).toBe(1);
    expect((await as('reports', 'export', '--month', '2026-11')).code).toBe(0);
    const rows = (await db.knex('admin_audit').where('id', '>', since).orderBy('id').select('actor', 'action', 'target', 'after_json')) as {
      actor: string;
      action: string;
      target: string;
      after_json: string;
    }[];
    expect(rows.map((r) => [r.actor, r.action, r.target])).toEqual([
      ['cli:carol', 'report.list', ''],
      ['cli:carol', 'report.view', 'R-000000000B'],
    ]);
    expect(JSON.parse(rows[0]!.after_json)).toEqual({ shown: 3 });
  });

  it('refuses an appeal address with control characters or address syntax that could reach a mail header', async () => {
    for (const email of ['x@example.com\r\nBcc: y@example.com', 'x\u0000@example.com', 'g:x@example.com;', 'x@example.com,y']) {
      const res = await cli('reports', 'appeal', 'R-000000000D', '--text', 'please look again', '--email', email);
      expect({ email, code: res.code }).toEqual({ email, code: 2 });
      expect(res.err).toMatch(/--email must be an e-mail address/);
    }
    expect(await db.knex('mail_outbox').where('to_address', 'like', '%y@example.com%').first()).toBeUndefined();
  });
});
