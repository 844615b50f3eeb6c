import { expect, it, vi } from 'vitest';
import { resolveReport } from '@media-site/db/moderation';
import { loadConfig } from '../../../config';
import { postFromSite, startReportKit } from '../../../test/report-kit';
import { describeWithKit } from '../../../test/suite';

const valid = {
  content: '/video/clip-one',
  reason: 'no_consent',
  details: 'This is me and I never agreed to publication.',
  email: 'me@example.com',
};

describeWithKit('content reports and appeals', startReportKit, (kit) => {
  const post = (path: string, body: unknown) => postFromSite(kit(), path, body);

  it('stores a report and answers its reference with the promised deadlines', async () => {
    kit().setNow(Date.parse('2026-11-06T18:00:00Z'));
    const res = await post('/api/reports', valid);
    expect(res.status).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toMatchObject({
      receivedAt: '2026-11-06T18:00:00.000Z',
      acknowledgeBy: '2026-11-08T18:00:00.000Z',
      resolveBy: '2026-11-18T00:00:00.000Z',
      appealBusinessDays: 14,
      canAppeal: false,
    });
    expect(res.body.reference).toMatch(/^R-[0-9A-Z]{10}$/);
    const stored = await kit().db.knex('content_reports').where({ reference: res.body.reference }).first();
    expect(stored).toMatchObject({ content_url: '/video/clip-one', reason: 'no_consent', reporter_email: 'me@example.com' });
    const status = await kit().request.get(`/api/reports/${res.body.reference}`);
    expect(status.status).toBe(200);
    expect(status.body).toEqual(res.body);
    // Never the reporter's details or address.
    expect(JSON.stringify(status.body)).not.toMatch(/example\.com|never agreed/);
  });

  it('promises the deadlines operators work to: REPORT_HOLIDAYS is skipped as the CLI skips it', async () => {
    kit().setNow(Date.parse('2026-11-06T18:00:00Z'));
    const settings = kit().deps.settings;
    settings.reportHolidays = loadConfig({ REPORT_HOLIDAYS: '2026-11-09' }).REPORT_HOLIDAYS;
    try {
      const res = await post('/api/reports', valid);
      expect(res.status).toBe(201);
      // One business day later than without the holiday (2026-11-18).
      expect(res.body.resolveBy).toBe('2026-11-19T00:00:00.000Z');
    } finally {
      settings.reportHolidays = new Set();
    }
    expect(() => loadConfig({ REPORT_HOLIDAYS: '2026-11-09,9th of May' })).toThrow(
      /REPORT_HOLIDAYS.*"9th of May" is not a YYYY-MM-DD date/,
    );
  });

  let refusals = 0;
  it.each([
    [{ ...valid, reason: 'dislike' }, /reason/],
    [{ ...valid, content: '' }, /content/],
    [{ ...valid, content: 'javascript:alert(1)' }, /content/],
    [{ ...valid, content: `/${'a'.repeat(500)}` }, /content/],
    [{ ...valid, details: '   ' }, /details/],
    [{ ...valid, details: 'x'.repeat(2001) }, /details/],
    [{ ...valid, details: 'bell\u0007' }, /details/],
    [{ ...valid, email: 'not-an-address' }, /email/],
    // Nothing a reporter types may reach a mail header (the acknowledgement is mailed to this address).
    [{ ...valid, email: 'a@b.c\r\nBcc: x@y.z' }, /email/],
    [{ ...valid, email: 'a@b.co\nBcc: x@y.z' }, /email/],
    [{ ...valid, email: 'a\u0000b@example.com' }, /email/],
    [{ reason: 'other' }, /content/],
  ])('refuses %j with 400', async (body, message) => {
    // The per-address limit counts before the body is read: each refusal from an address of its own.
    const res = await post('/api/reports', body).set('X-Forwarded-For', `198.51.100.${++refusals}`);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('bad_request');
    expect(res.body.error.message).toMatch(message);
  });

  it('accepts a report without an e-mail address and a full URL', async () => {
    const res = await post('/api/reports', { ...valid, email: '', content: 'https://mirror.example/some/page?id=3' });
    expect(res.status).toBe(201);
    expect((await kit().db.knex('content_reports').where({ reference: res.body.reference }).first()).reporter_email).toBeNull();
  });

  it('refuses a cross-site post', async () => {
    const res = await kit().request.post('/api/reports').set('Origin', 'https://evil.example').send(valid);
    expect(res.status).toBe(403);
  });

  it('appeals once a report is decided, once; unknown and malformed references are 404 and 400', async () => {
    kit().setNow(Date.parse('2026-11-09T09:00:00Z'));
    const { body } = await post('/api/reports', valid);
    const ref = body.reference as string;
    const early = await post(`/api/reports/${ref}/appeal`, { text: 'please' });
    expect(early.status).toBe(409);
    await resolveReport(kit().db.knex, ref, {
      outcome: 'no_action',
      note: 'release on file',
      by: 'ops',
      now: Date.parse('2026-11-10T09:00:00Z'),
    });
    expect((await kit().request.get(`/api/reports/${ref}`)).body).toMatchObject({ outcome: 'no_action', canAppeal: true });
    kit().setNow(Date.parse('2026-11-13T12:00:00Z'));
    expect((await post(`/api/reports/${ref}/appeal`, { text: '' })).status).toBe(400);
    const appeal = await post(`/api/reports/${ref}/appeal`, { text: 'The release is forged.', email: 'me@example.com' });
    expect(appeal.status).toBe(200);
    expect(appeal.body).toMatchObject({
      appealedAt: '2026-11-13T12:00:00.000Z',
      appealDecideBy: '2026-12-04T00:00:00.000Z',
      canAppeal: false,
    });
    expect((await post(`/api/reports/${ref}/appeal`, { text: 'again' })).status).toBe(409);
    expect((await post('/api/reports/R-0000000000/appeal', { text: 'x' })).status).toBe(404);
    expect((await kit().request.get('/api/reports/R-0000000000')).status).toBe(404);
    expect((await kit().request.get('/api/reports/nope')).status).toBe(400);
  });

  it('rate-limits reports per address with 429', async () => {
    // The limiter's windows run on Date (rate-limiter-flexible): move it with the kit's clock.
    const at = (iso: string) => {
      kit().setNow(Date.parse(iso));
      vi.setSystemTime(Date.parse(iso));
    };
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      at('2026-11-20T10:00:00Z');
      const statuses: number[] = [];
      // An address of its own: the tests above reported from the default one.
      const report = () => post('/api/reports', valid).set('X-Forwarded-For', '203.0.113.77');
      for (let i = 0; i < 7; i++) statuses.push((await report()).status);
      expect(statuses.slice(0, 5)).toEqual([201, 201, 201, 201, 201]);
      expect(statuses.slice(5)).toEqual([429, 429]);
      at('2026-11-20T10:01:01Z');
      expect((await report()).status).toBe(201);
    } finally {
      vi.useRealTimers();
    }
  });
});
