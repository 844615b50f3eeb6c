import { describe, expect, it } from 'vitest';
import type { RenderedMail } from '../index';
import { emailChangedMail, emailChangeRequestedMail, emailConfirmMail, passwordChangedMail, passwordResetMail } from './index';

// The account's mails (password reset, e-mail change): links from the configured site URL with the token in the
// fragment, nothing remote, and the same facts in the text and the HTML.
const site = { name: 'Media <Site> & Co', url: 'https://example.test' };
const TOKEN = 'T'.repeat(43);
const EVIL = 'a"<b>@example.com';

function expectSafe(mail: RenderedMail) {
  expect(mail.html).not.toMatch(/<img|<script|<link|<iframe|<style|url\(|src=/i);
  for (const href of mail.html.match(/href="[^"]*"/g) ?? []) expect(href).toMatch(/^href="https:\/\/example\.test\//);
  expect(mail.subject.endsWith(` · ${site.name}`)).toBe(true);
  expect(mail.html).not.toContain('<b>');
}

describe('account mail templates', () => {
  it('the reset link names the account and carries the token in the fragment of SITE_URL/reset-password, for one hour', () => {
    const mail = passwordResetMail(site, { username: 'member_a', token: TOKEN });
    expectSafe(mail);
    expect(mail.subject).toBe('Reset your password · Media <Site> & Co');
    expect(mail.text).toContain(`https://example.test/reset-password#token=${TOKEN}\n`);
    expect(mail.html).toContain(`href="https://example.test/reset-password#token=${TOKEN}"`);
    expect(mail.text).toContain('Hello member_a,');
    expect(mail.text).toContain('works once, for one hour');
  });

  it('the password-changed notice says sessions and links ended and how to get the account back', () => {
    const mail = passwordChangedMail(site, { username: 'member_a' });
    expectSafe(mail);
    expect(mail.text).toContain('Every browser that was signed in has been signed out');
    expect(mail.text).toContain('https://example.test/forgot-password');
  });

  it('the e-mail change: the confirm link to the new address, notices to the old one; addresses escaped in HTML', () => {
    const confirm = emailConfirmMail(site, { username: 'member_a', newEmail: EVIL, token: TOKEN });
    const requested = emailChangeRequestedMail(site, { username: 'member_a', newEmail: EVIL });
    const changed = emailChangedMail(site, { username: 'member_a', newEmail: EVIL });
    for (const mail of [confirm, requested, changed]) {
      expectSafe(mail);
      expect(mail.text).toContain(EVIL);
      expect(mail.html).toContain('a&quot;&lt;b&gt;@example.com');
    }
    expect(confirm.text).toContain(`https://example.test/confirm-email#token=${TOKEN}\n`);
    expect(requested.text).not.toContain('#token=');
    expect(changed.text).not.toContain('#token=');
  });
});
