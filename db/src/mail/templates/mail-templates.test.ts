import { describe, expect, it } from 'vitest';
import type { RenderedMail } from '../index';
import { mailSiteFromEnv } from '../site';
import {
  accessWithdrawnMail,
  appealOutcomeMail,
  appealReceivedMail,
  cancellationMail,
  formatAmount,
  renewalFailedMail,
  renewalReceiptMail,
  reportOutcomeMail,
  releaseDigestMail,
  reportReceivedMail,
  vodReceiptMail,
  welcomeReceiptMail,
} from './index';

const site = { name: 'Media <Site> & Co', url: 'https://example.test' };
const t = (iso: string) => Date.parse(iso);
const EVIL = '<script>alert("x")</script> & <img src=https://tracker.test/p.gif>';

/** The HTML's text with tags dropped and entities decoded: what a reader sees. */
function visible(html: string): string {
  const entities: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
  return html
    .replace(/<[^<>]*>/g, ' ')
    .replace(/&(?:amp|lt|gt|quot|#39);/g, (e) => entities[e] ?? e)
    .replace(/\s+/g, ' ');
}
const squash = (s: string) => s.replace(/\s+/g, ' ');

/** No images, no remote content but links, and the HTML says every fact the text says. */
function expectSafeAndSame(mail: RenderedMail, facts: string[]) {
  expect(mail.html).not.toMatch(/<img|<script|<link|<iframe|<style|url\(|src=/i);
  for (const href of mail.html.match(/href="[^"]*"/g) ?? []) expect(href).toMatch(/^href="https:\/\/example\.test\//);
  expect(mail.subject.endsWith(` · ${site.name}`)).toBe(true);
  for (const fact of facts) {
    expect(squash(mail.text)).toContain(fact);
    expect(visible(mail.html)).toContain(fact);
  }
  const links = mail.text.match(/https:\/\/\S+/g) ?? [];
  for (const link of links) expect(mail.html).toContain(link.replace(/&/g, '&amp;'));
}

describe('mail templates', () => {
  it('formats amounts: dollars for 840, the code otherwise', () => {
    expect(formatAmount('14.99', 840)).toBe('$14.99');
    expect(formatAmount('24.50', 978)).toBe('24.50 978');
  });

  it('a welcome receipt states product, amount, date, access and references, in text and HTML alike', () => {
    const mail = welcomeReceiptMail(site, {
      username: 'ann',
      amount: '14.99',
      currencyCode: 840,
      periodDays: 30,
      renews: true,
      paidAt: t('2026-11-26T10:00:00Z'),
      paidUntil: t('2026-12-26T10:00:00Z'),
      attemptId: 12,
      subscriptionId: '0126000000000012',
    });
    expect(mail.subject).toBe('Welcome — your receipt · Media <Site> & Co');
    expectSafeAndSame(mail, [
      'Hello ann,',
      'Membership, 30 days, renews automatically',
      '$14.99',
      '2026-11-26',
      '2026-12-26',
      'payment 12, subscription 0126000000000012',
      'card statement from our card billing provider',
      "card billing provider's consumer support",
      'https://example.test/account',
    ]);
    const once = welcomeReceiptMail(site, {
      username: 'ann',
      amount: '14.99',
      currencyCode: 840,
      periodDays: 30,
      renews: false,
      paidAt: 0,
      paidUntil: 0,
      attemptId: 1,
      subscriptionId: null,
    });
    expect(once.text).toContain('Membership, 30 days, does not renew');
    expect(once.text).not.toContain('stop the renewals');
    // The site's name is escaped in the HTML, never markup.
    expect(mail.html).toContain('Media &lt;Site&gt; &amp; Co');
    expect(mail.html).not.toContain('<Site>');
  });

  it('escapes whatever it is given: a VOD title with markup stays text', () => {
    const mail = vodReceiptMail(site, {
      username: 'ann',
      title: EVIL,
      amount: '24.50',
      currencyCode: 840,
      paidAt: t('2026-11-26T00:00:00Z'),
      attemptId: 7,
      subscriptionId: null,
    });
    expect(mail.subject).toBe(`Receipt for ${EVIL} · ${site.name}`);
    expect(mail.html).not.toMatch(/<script|<img/i);
    expect(mail.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;img src=https://tracker.test/p.gif&gt;');
    // Nothing fetched or run: the only tags are the template's own.
    expect(mail.html.match(/<[a-z]+/g)?.filter((tag) => !['<html', '<body', '<p', '<a', '<table', '<tr', '<td'].includes(tag))).toEqual([]);
    for (const fact of ['$24.50', '2026-11-26', 'payment 7', 'does not renew', `VOD: ${EVIL}`]) {
      expect(mail.text).toContain(fact);
      expect(visible(mail.html)).toContain(fact);
    }
  });

  it('a subject is one line whatever a title or the site name holds: control characters and line breaks become a space', () => {
    const mail = vodReceiptMail(
      { name: 'Media\r\nX-Site: 1', url: site.url },
      {
        username: 'ann',
        title: 'Clip\r\nBcc: thief@example.org\u0000\u2028end\u0085',
        amount: '24.50',
        currencyCode: 840,
        paidAt: t('2026-11-26T00:00:00Z'),
        attemptId: 7,
        subscriptionId: null,
      },
    );
    expect(mail.subject).toBe('Receipt for Clip Bcc: thief@example.org end · Media X-Site: 1');
  });

  it('renewal, failed renewal, cancellation and withdrawal notices say the dates and what to do', () => {
    const until = t('2027-01-25T00:00:00Z');
    const renewed = renewalReceiptMail(site, {
      username: 'ann',
      amount: '14.99',
      currencyCode: 840,
      renewedAt: t('2026-12-26T00:00:00Z'),
      paidUntil: until,
      nextRenewal: t('2027-01-24T00:00:00Z'),
      subscriptionId: 'S1',
    });
    expect(renewed.subject).toBe(`Your membership renewed · ${site.name}`);
    expectSafeAndSame(renewed, [
      'Membership renewal',
      '$14.99',
      '2026-12-26',
      'Access until',
      '2027-01-25',
      'Next renewal',
      '2027-01-24',
      'subscription S1',
    ]);
    expect(renewed.text).toContain('Access until: 2027-01-25\nNext renewal: 2027-01-24');
    // No billed amount in the event: no amount line rather than a guess.
    expect(
      renewalReceiptMail(site, {
        username: 'ann',
        amount: null,
        currencyCode: 840,
        renewedAt: 0,
        paidUntil: null,
        nextRenewal: null,
        subscriptionId: 'S1',
      }).text,
    ).not.toMatch(/Amount|\$/);

    const failed = renewalFailedMail(site, { username: 'ann', paidUntil: until });
    expect(failed.subject).toBe(`We could not renew your membership · ${site.name}`);
    expectSafeAndSame(failed, [
      'access lasts until 2027-01-25',
      "card billing provider's consumer support",
      'https://example.test/contact',
    ]);

    const cancelled = cancellationMail(site, { username: 'ann', paidUntil: until });
    expect(cancelled.subject).toBe(`Your membership was cancelled · ${site.name}`);
    expectSafeAndSame(cancelled, ['will not renew', 'keep access until 2027-01-25']);

    const withdrawn = accessWithdrawnMail(site, { username: 'ann', eventType: 'Chargeback' });
    expect(withdrawn.subject).toBe(`Your access was withdrawn · ${site.name}`);
    expectSafeAndSame(withdrawn, ['chargeback', 'https://example.test/contact']);
    expect(accessWithdrawnMail(site, { username: 'ann', eventType: 'Refund' }).text).toContain('refunded');
  });

  it('a release mail names each item with its link (ten, then a count), and its stop link', () => {
    const item = (k: number) => ({ kind: 'Video', title: `Clip & <b>${k}</b>`, modelname: 'Model A1', path: `/video/clip%20${k}` });
    const one = releaseDigestMail(site, { username: 'ann', items: [item(1)], unsubscribe: 'https://example.test/unsubscribe#token=T' });
    expect(one.subject).toBe(`New from Model A1: Clip & <b>1</b> · ${site.name}`);
    expectSafeAndSame(one, [`Video: Clip & <b>1</b> (Model A1)`, 'Stop release mails', 'https://example.test/unsubscribe#token=T']);
    expect(one.text).toContain('- Video: Clip & <b>1</b> (Model A1)\n  https://example.test/video/clip%201');
    expect(one.html).toContain('<li style="margin:4px 0"><a href="https://example.test/video/clip%201"');
    const many = releaseDigestMail(site, {
      username: 'ann',
      items: Array.from({ length: 13 }, (_, k) => item(k)),
      unsubscribe: 'https://example.test/unsubscribe#token=T',
    });
    expect(many.subject).toBe(`13 new releases from models you follow · ${site.name}`);
    expectSafeAndSame(many, ['And 3 more', `Clip & <b>9</b> (Model A1)`]);
    expect(many.text).not.toContain(`Clip & <b>1</b>0 (`);
  });

  it('report mails carry the reference, the dates and the status link, never more', () => {
    const received = reportReceivedMail(site, {
      reference: 'R-0000000001',
      receivedAt: t('2026-11-06T18:00:00Z'),
      acknowledgeBy: t('2026-11-08T18:00:00Z'),
      resolveBy: t('2026-11-18T00:00:00Z'),
      appealBusinessDays: 14,
    });
    expect(received.subject).toBe(`We received your report R-0000000001 · ${site.name}`);
    expectSafeAndSame(received, [
      'R-0000000001',
      '8 November 2026 at 18:00 UTC',
      '18 November 2026 at 00:00 UTC',
      '14 business days',
      'https://example.test/reports/R-0000000001/appeal',
    ]);

    const outcome = reportOutcomeMail(site, {
      reference: 'R-0000000001',
      outcome: 'removed',
      resolvedAt: t('2026-11-10T09:00:00Z'),
      appealBusinessDays: 14,
    });
    expect(outcome.subject).toBe(`Your report R-0000000001: content removed · ${site.name}`);
    expectSafeAndSame(outcome, ['The content was removed.', '10 November 2026', 'appeal']);

    const appeal = appealReceivedMail(site, {
      reference: 'R-0000000001',
      appealedAt: t('2026-11-11T09:00:00Z'),
      decideBy: t('2026-12-01T00:00:00Z'),
    });
    expectSafeAndSame(appeal, ['R-0000000001', '1 December 2026 at 00:00 UTC']);
    const decided = appealOutcomeMail(site, { reference: 'R-0000000001', decision: 'overturned', decidedAt: t('2026-11-20T09:00:00Z') });
    expect(decided.subject).toBe(`Your report R-0000000001: appeal overturned · ${site.name}`);
    expectSafeAndSame(decided, ['overturned', '20 November 2026']);
  });

  it('mailSiteFromEnv: the bff defaults, trailing slashes removed', () => {
    expect(mailSiteFromEnv({})).toEqual({ name: 'Media Site', url: 'http://localhost:8080' });
    expect(mailSiteFromEnv({ SITE_NAME: ' Example ', SITE_URL: 'https://example.com//' })).toEqual({
      name: 'Example',
      url: 'https://example.com',
    });
    expect(mailSiteFromEnv({ SITE_NAME: '', SITE_URL: ' ' })).toEqual({ name: 'Media Site', url: 'http://localhost:8080' });
  });
});
