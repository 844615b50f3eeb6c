import { beforeAll, describe, expect, it } from 'vitest';
import { runOpsCaptured } from './registry';
import { insertReport } from '@media-site/db/moderation';
import { testBackends, useTestDb } from '@media-site/db/testing';

const t = (iso: string) => Date.parse(iso);

describe.each(testBackends())('report outcome mails from the operator CLI (%s)', (backend) => {
  const db = useTestDb(backend);
  const clock = t('2026-11-10T09:00:00Z');

  const env = { SITE_NAME: 'Example Site', SITE_URL: 'https://example.test/' };
  const cli = (...argv: string[]) => runOpsCaptured(argv, { env, knex: db.knex, now: () => clock });
  const outbox = async (): Promise<Array<Record<string, string>>> => db.knex('mail_outbox').orderBy('id');

  beforeAll(async () => {
    const base = { contentUrl: '/video/clip-one', details: 'details', reason: 'copyright' as const, now: t('2026-11-09T08:00:00Z') };
    await insertReport(db.knex, { ...base, reference: 'R-00000000M1', email: 'reporter@example.com' });
    await insertReport(db.knex, { ...base, reference: 'R-00000000M2', email: null });
  });

  it('resolve mails the outcome to the reporter, in the decision; a refused second resolve adds none', async () => {
    expect((await cli('reports', 'resolve', 'R-00000000M1', '--outcome', 'removed', '--note', 'no licence', '--by', 'ops')).code).toBe(0);
    expect((await cli('reports', 'resolve', 'R-00000000M1', '--outcome', 'no_action', '--note', 'x', '--by', 'ops')).code).toBe(1);
    const [mail, ...more] = await outbox();
    expect(more).toEqual([]);
    expect(mail).toMatchObject({
      mail_key: 'report:R-00000000M1:resolved',
      to_address: 'reporter@example.com',
      template: 'report-outcome',
      subject: 'Your report R-00000000M1: content removed · Example Site',
    });
    expect(mail?.text_body).toContain('The content was removed.');
    expect(mail?.text_body).toContain('https://example.test/reports/R-00000000M1/appeal');
    // The operator's note is theirs: not in the mail.
    expect(mail?.text_body).not.toContain('no licence');
  });

  it('a report without an address: resolved with no mail', async () => {
    expect((await cli('reports', 'resolve', 'R-00000000M2', '--outcome', 'no_action', '--note', 'fine', '--by', 'ops')).code).toBe(0);
    expect(await outbox()).toHaveLength(1);
  });

  it('an appeal recorded with an address is acknowledged; its decision goes to the appellant and the reporter', async () => {
    const bad = await cli('reports', 'appeal', 'R-00000000M1', '--text', 'mine', '--email', 'not an address');
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--email must be an e-mail address of at most 254 characters/);
    expect((await cli('reports', 'appeal', 'R-00000000M1', '--text', 'mine', '--email', `${'a'.repeat(243)}@example.com`)).code).toBe(2);
    expect((await cli('reports', 'appeal', 'R-00000000M1', '--text', 'It is my own work.', '--email', 'uploader@example.com')).code).toBe(
      0,
    );
    expect(
      (await cli('reports', 'decide', 'R-00000000M1', '--decision', 'overturned', '--note', 'licence shown', '--by', 'lead')).code,
    ).toBe(0);
    const added = (await outbox()).slice(1);
    expect(added.map((m) => [m.mail_key, m.to_address, m.template])).toEqual([
      ['report:R-00000000M1:appeal-received', 'uploader@example.com', 'appeal-received'],
      ['report:R-00000000M1:appeal-decided:0', 'reporter@example.com', 'appeal-outcome'],
      ['report:R-00000000M1:appeal-decided:1', 'uploader@example.com', 'appeal-outcome'],
    ]);
    expect(added[1]?.subject).toBe('Your report R-00000000M1: appeal overturned · Example Site');
  });
});
