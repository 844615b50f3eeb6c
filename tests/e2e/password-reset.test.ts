import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createKnex } from '@media-site/db';
import { catalogCli } from '../src/catalog-cli';
import { openPage, screenshotsOf, stackWithBrowser, type Viewport } from './browser';

/**
 * The password reset journey through nginx, the bff and the media service in Chromium: a member is
 * signed in on one browser and holds a download link; on a second browser someone who knows the
 * mailbox asks for a reset, opens the mailed link and sets a new password, ending signed in. The
 * first browser's session and the old link are refused, and the new password signs in.
 */
const OLD_PASSWORD = 'correct horse battery';
const NEW_PASSWORD = 'a brand new horse';

const site = stackWithBrowser({ env: { RATE_LIMIT_LOGIN_PER_MINUTE: '1000', MEDIA_REVOCATION_INTERVAL_S: '5' } });
const open = (viewport: Viewport) => openPage(site.browser, site.stack.baseUrl, viewport);
const shot = screenshotsOf('reset');

async function signInAs(page: Page, username: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Username', { exact: true }).fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.locator('main').getByRole('button', { name: 'Sign in' }).click();
}

/** The link of the newest mail of `template` to `to`, read from the outbox row the bff wrote. */
async function mailedLink(to: string, template = 'password-reset', page = 'reset-password'): Promise<string> {
  const knex = createKnex(site.stack.databaseUrl);
  const pattern = new RegExp(`(https?://\\S+/${page}#token=[\\w-]{43})\n`);
  try {
    for (let i = 0; i < 50; i += 1) {
      const row = await knex('mail_outbox').where({ to_address: to, template }).orderBy('id', 'desc').first('text_body');
      const link = pattern.exec(String(row?.text_body ?? ''))?.[1];
      if (link) return link;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`no reset mail to ${to}`);
  } finally {
    await knex.destroy();
  }
}

/** No horizontal scroll: nothing is wider than the viewport. */
const overflows = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);

describe('a forgotten password, reset by mail', () => {
  it.each(['desktop', 'phone'] as const)(
    'ends signed in with the new password; old sessions and links are refused (%s)',
    async (viewport) => {
      const username = `reset_${viewport}`;
      const email = `${username}@example.com`;
      const added = await catalogCli(site.stack, 'member', 'add', username, '--password', OLD_PASSWORD, '--email', email, '--days', '30');
      expect(added.code).toBe(0);

      // Browser 1: signed in, holding a download link for a members' video.
      const first = await open(viewport);
      await signInAs(first.page, username, OLD_PASSWORD);
      await first.page.waitForURL((url) => !url.pathname.startsWith('/login'));
      await first.page.goto('/account');
      await first.page.getByText(`Signed in as ${username}.`).waitFor();
      const link = await first.page.evaluate(async () => {
        const video = ((await (await fetch('/api/videos/1')).json()) as { path: string }[])[0];
        const download = (
          (await (await fetch(`/api/videos/prename/${encodeURIComponent(video?.path ?? '')}`)).json()) as { download: string }
        ).download;
        const res = await fetch(`/api/download-link?path=${encodeURIComponent(decodeURIComponent(download))}`);
        return ((await res.json()) as { url: string }).url;
      });
      const linkStatus = async () => (await fetch(`${site.stack.baseUrl}${link}`, { headers: { Range: 'bytes=0-0' } })).status;
      expect(await linkStatus()).toBe(206);

      // Browser 2: "Forgot password?" under the sign-in form.
      const second = await open(viewport);
      await second.page.goto('/login');
      await second.page.getByRole('link', { name: 'Forgot password?' }).click();
      await second.page.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
      await second.page.getByLabel('Username or e-mail', { exact: true }).fill(email);
      await second.page.getByRole('button', { name: 'Send the link' }).click();
      await second.page.getByText('If an account matches, we have sent a link to its e-mail address. It works for one hour.').waitFor();
      expect(await overflows(second.page)).toBe(false);
      const axe = await new AxeBuilder({ page: second.page }).analyze();
      expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
      await shot(second.page, '1-forgot', viewport);

      // The mailed link, opened on this site (SITE_URL names the configured address, not this test port).
      const mailed = new URL(await mailedLink(email));
      await second.page.goto(`${mailed.pathname}${mailed.hash}`);
      await second.page.getByLabel('New password (8 to 64 characters)', { exact: true }).fill(NEW_PASSWORD);
      await second.page.getByLabel('New password again', { exact: true }).fill(NEW_PASSWORD);
      await shot(second.page, '2-new-password', viewport);
      await second.page.getByRole('button', { name: 'Change password' }).click();
      await second.page.getByText('Your password was changed.').waitFor();
      // The token is gone from the address bar once spent.
      expect(new URL(second.page.url()).hash).toBe('');
      expect(await overflows(second.page)).toBe(false);
      await shot(second.page, '3-changed', viewport);
      await second.page.goto('/account');
      await second.page.getByText(`Signed in as ${username}.`).waitFor();

      // The same link a second time: refused, with a way to ask again.
      await second.page.goto(`${mailed.pathname}${mailed.hash}`);
      await second.page.getByLabel('New password (8 to 64 characters)', { exact: true }).fill('yet another horse');
      await second.page.getByLabel('New password again', { exact: true }).fill('yet another horse');
      await second.page.getByRole('button', { name: 'Change password' }).click();
      await second.page.getByText('This reset link has expired or was already used. Ask for a new one.').waitFor();
      await second.page.getByRole('link', { name: 'Ask for a new link' }).waitFor();
      await shot(second.page, '4-link-used', viewport);

      // Browser 1: its session ended; /account sends it to sign in.
      await first.page.reload();
      await first.page.waitForURL(/\/login/, { timeout: 15_000 });
      await first.page.getByLabel('Username', { exact: true }).waitFor();
      // The old download link: refused once the media service polls the revocation list (every 5 s here).
      let status = await linkStatus();
      for (let i = 0; i < 40 && status !== 403; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        status = await linkStatus();
      }
      expect(status).toBe(403);

      // The old password no longer signs in; the new one does.
      await signInAs(first.page, username, OLD_PASSWORD);
      await first.page.getByText('Wrong username or password.').waitFor();
      await first.page.getByLabel('Password', { exact: true }).fill(NEW_PASSWORD);
      await first.page.locator('main').getByRole('button', { name: 'Sign in' }).click();
      await first.page.waitForURL((url) => !url.pathname.startsWith('/login'));
      await first.page.goto('/account');
      await first.page.getByText(`Signed in as ${username}.`).waitFor();
      await shot(first.page, '5-account', viewport);

      // The "your password was changed" notice went into the outbox with the change.
      const knex = createKnex(site.stack.databaseUrl);
      try {
        expect(
          await knex('mail_outbox').where({ to_address: email, template: 'password-changed' }).count({ n: '*' }).first(),
        ).toMatchObject({ n: 1 });
      } finally {
        await knex.destroy();
      }

      // The e-mail address on /account: changed by the link mailed to the new address, opened on the other browser.
      const newEmail = `${username}.new@example.com`;
      await first.page.getByLabel('New e-mail address', { exact: true }).fill(newEmail);
      await first.page.getByLabel('Current password (to confirm)', { exact: true }).fill(NEW_PASSWORD);
      await first.page.getByRole('button', { name: 'Change e-mail' }).click();
      await first.page.getByText(`We sent a confirmation link to ${newEmail}. Your address changes when you open it.`).waitFor();
      await first.page.getByRole('heading', { name: 'E-mail' }).scrollIntoViewIfNeeded();
      expect(await overflows(first.page)).toBe(false);
      await shot(first.page, '6-email-asked', viewport);
      const confirmLink = new URL(await mailedLink(newEmail, 'email-confirm', 'confirm-email'));
      await second.page.goto(`${confirmLink.pathname}${confirmLink.hash}`);
      await second.page.getByText(`Your e-mail address is now ${newEmail}.`).waitFor();
      await shot(second.page, '7-email-confirmed', viewport);
      await first.page.reload();
      await first.page.getByTestId('account-email').getByText(newEmail).waitFor();
      expect([...first.errors, ...second.errors]).toEqual([]);
      await first.page.context().close();
      await second.page.context().close();
    },
  );
});
