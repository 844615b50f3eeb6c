import { expect, it } from 'vitest';
import { resolveReport } from '@media-site/db/moderation';
import { postFromSite, startReportKit, type ReportKit } from '../../../test/report-kit';
import type { Backend } from '@media-site/db/testing';
import { describeWithKit } from '../../../test/suite';

const valid = { content: '/video/clip-one', reason: 'no_consent', details: 'This is me and I never agreed to publication.' };

async function startMailKit(backend: Backend): Promise<ReportKit> {
  const kit = await startReportKit(backend);
  kit.deps.settings.site = { name: 'Example Site', url: 'https://example.test' };
  return kit;
}

describeWithKit('report acknowledgements through the outbox', startMailKit, (kit) => {
  const post = (path: string, body: unknown) => postFromSite(kit(), path, body);
  const outbox = async (): Promise<Array<Record<string, string>>> => kit().db.knex('mail_outbox').orderBy('id');

  it('a report with an address gets one acknowledgement with its reference, dates and status link', async () => {
    kit().setNow(Date.parse('2026-11-06T18:00:00Z'));
    const res = await post('/api/reports', { ...valid, email: 'me@example.com' });
    expect(res.status).toBe(201);
    const ref = res.body.reference as string;
    const [mail, ...more] = await outbox();
    expect(more).toEqual([]);
    expect(mail).toMatchObject({
      mail_key: `report:${ref}:received`,
      to_address: 'me@example.com',
      template: 'report-received',
      subject: `We received your report ${ref} · Example Site`,
    });
    for (const fact of [ref, '8 November 2026 at 18:00 UTC', '18 November 2026 at 00:00 UTC', `https://example.test/reports/${ref}/appeal`])
      expect(mail?.text_body).toContain(fact);
    // The mail says what the status page says: never the report's details.
    expect(mail?.text_body).not.toContain('never agreed');
  });

  it('a report without an address adds no mail', async () => {
    const before = (await outbox()).length;
    expect((await post('/api/reports', valid)).status).toBe(201);
    expect((await post('/api/reports', { ...valid, email: '' })).status).toBe(201);
    expect(await outbox()).toHaveLength(before);
  });

  it('an appeal with an address gets one acknowledgement with its decision date; a refused second appeal adds none', async () => {
    kit().setNow(Date.parse('2026-11-06T18:00:00Z'));
    const ref = (await post('/api/reports', valid)).body.reference as string;
    await resolveReport(kit().db.knex, ref, {
      outcome: 'no_action',
      note: 'release on file',
      by: 'ops',
      now: Date.parse('2026-11-10T09:00:00Z'),
    });
    kit().setNow(Date.parse('2026-11-13T12:00:00Z'));
    const before = (await outbox()).length;
    expect((await post(`/api/reports/${ref}/appeal`, { text: 'The release is forged.', email: 'them@example.com' })).status).toBe(200);
    expect((await post(`/api/reports/${ref}/appeal`, { text: 'again', email: 'them@example.com' })).status).toBe(409);
    const added = (await outbox()).slice(before);
    expect(added.map((m) => [m.mail_key, m.to_address, m.template])).toEqual([
      [`report:${ref}:appeal-received`, 'them@example.com', 'appeal-received'],
    ]);
    expect(added[0]?.subject).toBe(`We received your appeal on ${ref} · Example Site`);
    expect(added[0]?.text_body).toContain('4 December 2026 at 00:00 UTC');
  });
});
