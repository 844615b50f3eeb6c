import { mkdirSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import type { FrameLocator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKnex } from '@media-site/db';
import { schedule } from '@media-site/db/content';
import { vodDownloadName } from '@media-site/contracts/download-name';
import { catalogCli } from '../src/catalog-cli';
import { openPage, screenshotDir, screenshotsOf, type Site, type Viewport } from './browser';
import { AdminKit, adminShot } from './admin-kit';
import { settled } from './quiet';
import { PASSWORD, fillCardFields, fillPaymentForm, firstPhoto, startPaymentSite, type PaymentSite } from './payment-kit';

/**
 * The member journey through nginx, the bff, the media service and the provider simulator:
 * a taken username on its field, joining signs in (on /ccbill and inside /join's frame), buying a
 * VOD lands on it owned, sign-in returns to the page that sent you, and the account page.
 */
let site: PaymentSite;
let vod: { path: string; updatename: string };

beforeAll(async () => {
  // No stalled card here: a charge may take as long as a loaded CI machine needs (the kit's 3 s
  // bound, made for payment.test.ts's stalling card, turned a slow approval into "unknown" once).
  site = await startPaymentSite({ RATE_LIMIT_LOGIN_PER_ACCOUNT: '1000', CCBILL_CHARGE_TIMEOUT_MS: '20000' });
  mkdirSync(screenshotDir, { recursive: true });
  const knex = createKnex(site.stack.databaseUrl);
  try {
    vod = await knex('vods').orderBy('id').first('path', 'updatename');
  } finally {
    await knex.destroy();
  }
}, 300_000);

afterAll(async () => {
  await site?.stop();
});

const open = (viewport: Viewport) => openPage(site.browser, site.stack.baseUrl, viewport);
const shot = screenshotsOf('journey');

/** The card and address part of the form (a VOD purchase has no username or password). */
const fillCard = (form: Page | FrameLocator, email: string) => fillCardFields(site, form, email);

const fillJoin = (form: Page | FrameLocator, username: string) => fillPaymentForm(site, form, username, '1111');

/** The header offers Account (not Join) to a signed-in member. */
async function expectSignedInHeader(page: Page, username: string): Promise<void> {
  await page.locator('header a[href="/account"]').first().waitFor({ state: 'attached' });
  expect(await page.locator('header a[href="/join"]').count()).toBe(0);
  expect(await page.locator('header').innerText()).toContain(username);
}

async function memberPhotoStatus(page: Page): Promise<number> {
  const photo = await firstPhoto(site.stack.databaseUrl);
  return page.evaluate(async (url) => (await fetch(url)).status, photo);
}

/** How many cards of /photos show the locked badge (all of them for a visitor, none for a member). */
async function lockedPhotoCards(page: Page): Promise<number> {
  await page.goto('/photos');
  await page.locator('main li.card').first().waitFor();
  return page.locator('main .badge-locked').count();
}

async function signInAs(page: Page, username: string, password = PASSWORD): Promise<void> {
  await page.getByLabel('Username', { exact: true }).fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.locator('main').getByRole('button', { name: 'Sign in' }).click();
}

describe('member journey: join, signed in, owned, account', () => {
  it.each(['desktop', 'phone'] as const)(
    'shows a taken username on its field as it is typed, before any card data (%s)',
    async (viewport) => {
      const { page, errors } = await open(viewport);
      await page.goto('/ccbill');
      await page.getByLabel('Username', { exact: true }).fill('demo');
      const fieldError = page.locator('#pay-username-error');
      await fieldError.getByText('This username is taken. Choose another.').waitFor();
      expect(await page.getByLabel('Username', { exact: true }).getAttribute('aria-invalid')).toBe('true');
      await shot(page, 'username-taken', viewport);
      // A free name clears it.
      await page.getByLabel('Username', { exact: true }).fill(`free_${viewport}`);
      await fieldError.waitFor({ state: 'detached' });
      // Submitting with the taken name stops on the field: no step message, no card call.
      await fillJoin(page, 'demo');
      await fieldError.waitFor();
      await page.getByRole('button', { name: /^Pay / }).click();
      expect(await page.locator('.payment-status').innerText()).not.toContain('Failed to obtain access token.');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('pay-username');
      expect(errors).toEqual([]);
      await page.context().close();
    },
  );

  it.each(['desktop', 'phone'] as const)(
    'joins on /ccbill and lands signed in on the welcome, member photos open (%s)',
    async (viewport) => {
      const username = `ccb_${viewport}`;
      const { page, errors } = await open(viewport);
      expect(await lockedPhotoCards(page)).toBeGreaterThan(0);
      await shot(page, '1-visitor-photos', viewport);
      expect(await memberPhotoStatus(page)).toBeGreaterThanOrEqual(401);

      await page.goto('/ccbill');
      await fillJoin(page, username);
      await page.getByRole('button', { name: /^Pay / }).click();
      await page.locator('.payment-status').getByText('Transaction successful!').waitFor({ timeout: 30_000 });
      await page.waitForURL('**/welcome', { timeout: 15_000 });
      await page.getByRole('heading', { name: `Welcome, ${username}` }).waitFor();
      await expectSignedInHeader(page, username);
      await shot(page, '2-welcome', viewport);
      expect(await memberPhotoStatus(page)).toBe(200);
      // The full photo: its address opens the viewer, whose picture is the file itself.
      const full = await page.goto(await firstPhoto(site.stack.databaseUrl));
      expect(full?.status()).toBe(200);
      const picture = page.locator('main .photo-viewer-stage img');
      await expect.poll(() => picture.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
      await shot(page, '2b-member-photo', viewport);
      expect(await lockedPhotoCards(page)).toBe(0);
      expect(errors).toEqual([]);
      await page.context().close();
    },
  );

  it.each(['desktop', 'phone'] as const)(
    "joins inside /join's frame: the frame fits the form and the top window lands signed in (%s)",
    async (viewport) => {
      const username = `frm_${viewport}`;
      const { page, errors } = await open(viewport);
      await page.goto('/join');
      const frame = page.frameLocator('iframe.join-frame');
      await frame.getByLabel('Card number', { exact: true }).waitFor();
      // The frame grows to its content: the whole form and the status line show, nothing scrolls inside it.
      await page.waitForFunction(() => (document.querySelector('iframe.join-frame') as HTMLIFrameElement).clientHeight > 600);
      const inner = await frame.locator('html').evaluate((html) => html.scrollHeight - window.innerHeight);
      expect(inner).toBeLessThanOrEqual(1);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await fillJoin(frame, username);
      await frame.getByRole('button', { name: /^Pay / }).scrollIntoViewIfNeeded();
      await shot(page, '3-join-frame-filled', viewport);
      await frame.getByRole('button', { name: /^Pay / }).click();
      await page.waitForURL('**/welcome', { timeout: 30_000 });
      await page.getByRole('heading', { name: `Welcome, ${username}` }).waitFor();
      await expectSignedInHeader(page, username);
      expect(await memberPhotoStatus(page)).toBe(200);
      expect(errors).toEqual([]);
      await page.context().close();
    },
  );

  it.each(['desktop', 'phone'] as const)(
    'buys a VOD and lands on it, owned, with a download through a signed link (%s)',
    async (viewport) => {
      const username = `ccb_${viewport}`;
      const { page, errors } = await open(viewport);
      await page.goto('/login');
      await signInAs(page, username);
      await expectSignedInHeader(page, username);
      await page.goto(`/vod/${encodeURIComponent(vod.path)}`);
      const buy = page.getByRole('link', { name: /^Buy for \$\d+\.\d\d$/ });
      await buy.waitFor();
      expect(await page.getByText('Owned – Download').count()).toBe(0);
      await shot(page, '4-vod-buy', viewport);
      await buy.click();
      await page.waitForURL(/\/ccbill\?vod=/);
      await fillCard(page, `${username}@example.com`);
      // Between approval and the VOD page, "You already own this VOD." read like a second charge.
      await page.evaluate(() => {
        const seen = window as unknown as { sawOwned?: boolean };
        seen.sawOwned = false;
        new MutationObserver(() => {
          if (document.body.textContent?.includes('You already own this VOD.')) seen.sawOwned = true;
        }).observe(document.body, { subtree: true, childList: true, characterData: true });
      });
      await page.getByRole('button', { name: /^Pay / }).click();
      await page
        .getByText('Payment approved — opening your VOD…')
        .first()
        .waitFor({ timeout: 30_000 })
        .catch(async (error: unknown) => {
          // Say what the page said instead, and what the services logged about the charge.
          const status = await page
            .locator('.payment-status')
            .innerText()
            .catch(() => '(no status)');
          const charge = site.logLines.filter((line) => /charge|payment|attempt/i.test(line)).slice(-15);
          throw new Error(`${String(error)}\nthe form said: ${status}\n${charge.join('\n')}`);
        });
      await page.waitForURL(`**/vod/${encodeURIComponent(vod.path)}`, { timeout: 30_000 });
      expect(await page.evaluate(() => (window as unknown as { sawOwned?: boolean }).sawOwned)).toBe(false);
      const owned = page.getByRole('button', { name: 'Owned – Download' });
      await owned.waitFor();
      expect(await buy.count()).toBe(0);
      await page.getByText('Thank you: this VOD is yours.').waitFor();
      await shot(page, '5-vod-owned', viewport);

      const link = page.waitForResponse((response) => response.url().includes('/api/download-link?'));
      const download = page.waitForEvent('download');
      await owned.click();
      expect((await link).status()).toBe(200);
      const file = await download;
      expect(file.url()).toMatch(/^http:\/\/[^/]+\/members\/vod\/.*\?/);
      await file.cancel();

      // Owned in the listing too; and /ccbill for it says so instead of taking a card.
      await page.goto('/vod');
      await page.locator('main .badge-owned').first().waitFor();
      await page.goto(`/ccbill?vod=${encodeURIComponent(vod.path)}`);
      await page.getByText('You already own this VOD.').waitFor();
      expect(await page.getByLabel('Card number', { exact: true }).count()).toBe(0);
      expect(errors).toEqual([]);
      await page.context().close();
    },
  );

  it.each(['desktop', 'phone'] as const)('sign-in returns to the page that sent you; a foreign next goes home (%s)', async (viewport) => {
    const { page, errors } = await open(viewport);
    const here = `/vod/${encodeURIComponent(vod.path)}`;
    await page.goto(here);
    const signIn = page.locator('main').getByRole('link', { name: 'Sign in' });
    await signIn.click();
    await page.waitForURL(
      (url) =>
        (url.pathname === '/login' && url.searchParams.get('next') === decodeURIComponent(here)) || url.searchParams.get('next') === here,
    );
    await signInAs(page, 'demo', 'demo-password-local-only');
    await page.waitForURL(`**${here}`);
    await expectSignedInHeader(page, 'demo');
    await page.context().close();

    const other = await open(viewport);
    for (const next of ['//evil.example/x', 'https://evil.example/', '/\\evil.example', 'javascript:alert(1)']) {
      await other.page.goto(`/login?next=${encodeURIComponent(next)}`);
      await other.page.getByRole('heading', { name: 'Sign in' }).waitFor();
      await signInAs(other.page, 'demo', 'demo-password-local-only');
      await other.page.waitForURL((url) => url.pathname === '/' && url.origin === site.stack.baseUrl);
    }
    expect(other.errors).toEqual([]);
    await other.page.context().close();
    expect(errors).toEqual([]);
  });

  it.each(['desktop', 'phone'] as const)(
    'saves a photo set from its card and a VOD from its page, finds both on home and My list after a reload, removes one (%s)',
    async (viewport) => {
      const { page, errors } = await open(viewport);
      await page.goto('/login?next=/photos');
      await signInAs(page, `ccb_${viewport}`);
      await page.waitForURL('**/photos');
      const card = page.locator('main li.card').first();
      const title = (await card.locator('.card-title').innerText()).trim();
      const cardHeart = card.getByRole('button', { name: `Save ${title}` });
      await cardHeart.click();
      await page.waitForFunction(
        (name) => document.querySelector(`main li.card button[aria-label="${name}"]`)?.getAttribute('aria-pressed') === 'true',
        `Save ${title}`,
      );
      await shot(page, '7-saved-card', viewport);

      await page.goto(`/vod/${encodeURIComponent(vod.path)}`);
      const pageHeart = page.locator('main').getByRole('button', { name: `Save ${vod.updatename}` });
      await pageHeart.click();
      await page.waitForFunction(
        () => document.querySelector('main .save:not(.save-compact) button')?.getAttribute('aria-pressed') === 'true',
      );

      // Home's row, newest first, from the server: a reload still has it.
      await page.goto('/');
      const row = page.getByRole('region', { name: /^My list/ });
      await row.locator('li.card').nth(1).waitFor();
      expect(await row.locator('.card-title').allInnerTexts()).toEqual([vod.updatename, title]);
      await shot(page, '8-home-my-list', viewport);

      // A phone's header row has no room for it: it is in the menu, beside the member's name.
      if (viewport === 'phone') await page.getByRole('button', { name: 'Menu' }).click();
      await page.locator('header').getByRole('link', { name: 'My list' }).click();
      await page.waitForURL('**/my-list');
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'My list' }).waitFor();
      await page.getByText('2 items, newest first.').waitFor();
      await settled(page);
      const axe = await new AxeBuilder({ page }).analyze();
      expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
      await shot(page, '9-my-list', viewport);

      await page
        .locator('main')
        .getByRole('button', { name: `Save ${title}` })
        .click();
      await page.getByText('1 item, newest first.').waitFor();
      await page.reload();
      await page.getByText('1 item, newest first.').waitFor();
      expect(await page.locator('main .card-title').allInnerTexts()).toEqual([vod.updatename]);
      expect(errors).toEqual([]);
      await page.context().close();
    },
  );

  it.each(['desktop', 'phone'] as const)(
    'account page: status, VODs, password, sign out everywhere; visitors sign in first (%s)',
    async (viewport) => {
      const username = `ccb_${viewport}`;
      const { page, errors } = await open(viewport);
      await page.goto('/account');
      await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('next') === '/account');
      await signInAs(page, username);
      await page.waitForURL('**/account');
      await page.getByRole('heading', { name: 'Your account' }).waitFor();
      expect(await page.getByTestId('membership-status').innerText()).toMatch(
        /^Active, paid until \d{4}-\d{2}-\d{2}; renews automatically\.$/,
      );
      await page.getByRole('button', { name: `Download ${vod.updatename}` }).waitFor();
      expect(await page.locator('main').innerText()).toContain("card billing provider's consumer support");
      await settled(page);
      const axe = await new AxeBuilder({ page }).analyze();
      expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
      await shot(page, '6-account', viewport);

      // A second browser, signed in as the same member: signing out everywhere ends it too.
      const second = await open(viewport);
      await second.page.goto('/login');
      await signInAs(second.page, username);
      await expectSignedInHeader(second.page, username);

      await page.getByLabel('Current password', { exact: true }).fill('not the password');
      await page.getByLabel('New password (8 to 64 characters)', { exact: true }).fill('another horse battery');
      await page.getByRole('button', { name: 'Change password' }).click();
      await page.getByText('The current password is wrong.').waitFor();

      await page.getByRole('button', { name: 'Sign out everywhere' }).click();
      await page.waitForURL((url) => url.pathname === '/login');
      expect(await page.evaluate(async () => (await fetch('/api/me')).status)).toBe(401);
      expect(await second.page.evaluate(async () => (await fetch('/api/me')).status)).toBe(401);
      await second.page.context().close();
      expect(errors).toEqual([]);
      await page.context().close();
    },
  );

  it.each(['desktop', 'phone'] as const)(
    'cancels the renewal on /account: the provider records it, the page says when the membership ends, the confirmation is queued (%s)',
    async (viewport) => {
      const username = `ccb_${viewport}`;
      const { page, errors } = await open(viewport);
      await page.goto('/login?next=/account');
      await signInAs(page, username);
      await page.waitForURL('**/account');
      const status = page.getByTestId('membership-status');
      expect(await status.innerText()).toMatch(/renews automatically\.$/);
      await page.getByRole('button', { name: 'Cancel renewal' }).click();
      await page
        .getByText(/^Cancel the renewal\? You will not be charged again, and your membership stays active until \d{4}-\d{2}-\d{2}\.$/)
        .waitFor();
      await shot(page, '10-cancel-confirm', viewport);
      await page.getByRole('button', { name: 'Yes, cancel renewal' }).click();
      await page.getByRole('status').getByText('Renewal cancelled. We sent a confirmation by e-mail.').waitFor();
      expect(await status.innerText()).toMatch(/^Your membership ends on \d{4}-\d{2}-\d{2}\. It will not renew\.$/);
      expect(await page.getByRole('button', { name: 'Cancel renewal' }).count()).toBe(0);
      await shot(page, '11-cancelled', viewport);
      // Still so after a reload (stored here), recorded at the provider, the mail queued.
      await page.reload();
      await status.getByText(/^Your membership ends on /).waitFor();
      const knex = createKnex(site.stack.databaseUrl);
      try {
        const subscriptionId = String(
          (await knex('payment_attempts').where({ username }).first('provider_subscription_id')).provider_subscription_id,
        );
        const cancellations = (
          (await (await fetch(`${site.providerUrl}/_sim/cancellations`)).json()) as { cancellations: Array<{ subscriptionId: string }> }
        ).cancellations;
        expect(cancellations.map((c) => c.subscriptionId)).toContain(subscriptionId);
        const member = await knex('members').where({ username }).first('id');
        const subscription = await knex('subscriptions').where({ member_id: member.id, kind: 'membership' }).first('id');
        expect(
          await knex('mail_outbox')
            .where({ mail_key: `cancel-renewal:${subscription.id}` })
            .first('template'),
        ).toEqual({ template: 'cancellation' });
      } finally {
        await knex.destroy();
      }
      expect(errors).toEqual([]);
      await page.context().close();
    },
  );

  it.each(['desktop', 'phone'] as const)(
    "switches release mails on at /account, gets one at the release of a followed model's set, and stops them from its link (%s)",
    async (viewport) => {
      const username = `rel_${viewport}`;
      const added = await catalogCli(
        site.stack,
        'member',
        'add',
        username,
        '--password',
        PASSWORD,
        '--email',
        `${username}@example.com`,
        '--days',
        '30',
      );
      expect(added.code, added.err).toBe(0);
      const { page, errors } = await open(viewport);
      await page.goto('/login?next=/account');
      await signInAs(page, username);
      await page.waitForURL('**/account');
      const box = page.getByLabel('E-mail me when models in My list release something new');
      expect(await box.isChecked()).toBe(false);
      await box.check();
      await page.getByRole('status').getByText('Saved: we will e-mail you new releases.').waitFor();
      await shot(page, '12-release-mail-on', viewport);

      // The member follows a model; one of her sets is released a moment from now (the bff's
      // release timer fires, the digest runs on the catalog's change).
      const knex = createKnex(site.stack.databaseUrl);
      let text: string;
      try {
        const member = await knex('members').where({ username }).first('id', 'email');
        const set = await knex('photosets')
          .whereNotNull('model_id')
          .orderBy('id')
          .offset(viewport === 'desktop' ? 0 : 1)
          .first('path', 'updatename', 'model_id');
        await knex('saved_items').insert({
          member_id: member.id,
          content_type: 'model',
          content_id: set.model_id,
          saved_at: Date.now() - 1000,
        });
        await schedule(knex, { type: 'photoset', path: set.path }, Date.now() + 1500);
        const mail = async () =>
          knex('mail_outbox').where({ template: 'release-digest', to_address: member.email }).first('text_body', 'list_unsubscribe');
        await expect.poll(mail, { timeout: 30_000, interval: 250 }).toBeDefined();
        const row = await mail();
        text = String(row.text_body);
        expect(text).toContain(`Photo set: ${set.updatename}`);
        expect(String(row.list_unsubscribe)).toMatch(/\/api\/mail\/unsubscribe\?token=[\w-]{43}$/);
      } finally {
        await knex.destroy();
      }
      const link = /\/unsubscribe#token=[\w-]{43}/.exec(text)![0];
      await page.goto(link);
      await page.getByRole('button', { name: 'Stop release mails' }).click();
      await page
        .getByRole('status')
        .getByText(`Release mails are off for ${username}. You can switch them on again on your account page.`)
        .waitFor();
      expect(new URL(page.url()).hash).toBe('');
      await shot(page, '13-release-mail-stopped', viewport);
      await page.goto('/account');
      await box.waitFor();
      expect(await box.isChecked()).toBe(false);
      expect(errors).toEqual([]);
      await page.context().close();
    },
  );

  it('welcome and account pages have no serious axe violations at phone width', async () => {
    const { page } = await open('phone');
    await page.goto('/login');
    await signInAs(page, 'demo', 'demo-password-local-only');
    await expectSignedInHeader(page, 'demo');
    const found: string[] = [];
    for (const path of ['/welcome', '/account', `/vod/${encodeURIComponent(vod.path)}`]) {
      await page.goto(path);
      await page.locator('main h1').first().waitFor();
      await settled(page);
      const result = await new AxeBuilder({ page }).analyze();
      for (const v of result.violations) if (v.impact === 'serious' || v.impact === 'critical') found.push(`${path}: ${v.id}`);
    }
    expect(found).toEqual([]);
    await page.context().close();
  });
});

// What sells: a member buys a VOD nobody else here touches, downloads it and plays it to its end;
// the owner's Stats screen then shows exactly that on the VOD's row, and the sale in the totals.
describe("the console's Stats after a scripted session", () => {
  const admins = new AdminKit(
    () =>
      ({
        stack: site.stack,
        async open({ width = 1280, height = 800 } = {}) {
          const page = await site.newPage();
          await page.setViewportSize({ width, height });
          return { page, errors: [] };
        },
      }) as unknown as Site,
  );

  it('counts a purchase, a download, a play and a finish on the item, per day and per model', async () => {
    // A VOD the tests above leave alone whose original is an MP4, which plays before any encode.
    const knex = createKnex(site.stack.databaseUrl);
    let item: { path: string; updatename: string; modelname: string; price: string };
    try {
      const rows = (await knex('vods')
        .orderBy('id')
        .select('path', 'updatename', 'modelname', 'price', 'prename', 'format', 'datetoupload')) as Array<Record<string, unknown>>;
      const mp4 = rows.find((r) => {
        const day = r.datetoupload instanceof Date ? r.datetoupload.toISOString().slice(0, 10) : String(r.datetoupload);
        const name = vodDownloadName({ prename: String(r.prename), path: String(r.path), format: Number(r.format), datetoupload: day });
        return r.path !== vod.path && name.endsWith('.mp4');
      });
      if (!mp4) throw new Error('the demo has no other VOD with an MP4 original');
      item = { path: String(mp4.path), updatename: String(mp4.updatename), modelname: String(mp4.modelname), price: String(mp4.price) };
    } finally {
      await knex.destroy();
    }
    const { page } = await open('desktop');
    await page.goto('/login');
    await signInAs(page, 'ccb_desktop');
    await expectSignedInHeader(page, 'ccb_desktop');
    await page.goto(`/vod/${encodeURIComponent(item.path)}`);
    await page.getByRole('link', { name: /^Buy for \$\d+\.\d\d$/ }).click();
    await page.waitForURL(/\/ccbill\?vod=/);
    await fillCard(page, 'ccb_desktop@example.com');
    await page.getByRole('button', { name: /^Pay / }).click();
    const owned = page.getByRole('button', { name: 'Owned – Download' });
    await owned.waitFor({ timeout: 30_000 });
    const download = page.waitForEvent('download');
    await owned.click();
    await (await download).cancel();
    const reports: string[] = [];
    page.on('response', (r) => {
      if (r.url().includes('/api/activity/')) reports.push(`${r.request().postData() ?? ''} ${r.status()}`);
    });
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await page.waitForFunction(() => (document.querySelector('video.player-video') as HTMLVideoElement | null)?.ended === true, null, {
      timeout: 30_000,
    });
    await expect.poll(() => reports.length).toBe(2);
    expect(reports).toEqual(['{"event":"play"} 204', '{"event":"complete"} 204']);
    await page.context().close();

    await admins.addWithCli('stats_owner', 'owner');
    const { page: console } = await admins.signIn('stats_owner', 'desktop');
    try {
      await console.getByRole('link', { name: 'Stats' }).click();
      await console.getByLabel('Type').selectOption('vod');
      await console.getByRole('button', { name: 'Sales', exact: true }).click();
      // By its address: demo titles may repeat, folders do not.
      const row = console.getByRole('row').filter({ has: console.getByRole('link', { name: `/vod/${item.path}`, exact: true }) });
      await row.waitFor();
      await console.getByRole('columnheader', { name: 'Sales ▼' }).waitFor();
      expect(new URL(console.url()).search).toBe('?type=vod&sort=sales');
      await adminShot(console, 'stats', 'vods', 'desktop');

      // Its days: today's row holds exactly this session (the demo's generated days end yesterday).
      await row.getByRole('button', { name: item.updatename, exact: true }).click();
      await console.getByText(`Item ${item.path}`).waitFor();
      await console.getByText('Per day, as a table').click();
      const today = new Date().toISOString().slice(0, 10);
      const days = console.getByRole('region', { name: /^Per day \(UTC\), newest first/ });
      const todayRow = days.getByRole('row').filter({ has: console.getByRole('cell', { name: today, exact: true }) });
      // Day, plays, finished, downloads, saves, sales, revenue.
      expect(await todayRow.getByRole('cell').allInnerTexts()).toEqual([today, '1', '1', '1', '0', '1', `$${item.price}`]);
      await console.setViewportSize({ width: 390, height: 844 });
      await console.screenshot({ path: `${screenshotDir}/stats-item-390.png`, fullPage: true });
      await console.setViewportSize({ width: 1280, height: 800 });
      // Back to the list, then her items (the model's name in a row opens them); Back returns.
      await console.getByRole('button', { name: 'All items' }).click();
      await row.getByRole('button', { name: item.modelname, exact: true }).click();
      await console.getByText(`Model ${item.modelname}`).waitFor();
      await row.waitFor();
      await console.goBack();
      await console.getByText(`Model ${item.modelname}`).waitFor({ state: 'detached' });
      // From Content, an item's Stats link opens its days.
      await console.getByRole('link', { name: 'Content', exact: true }).click();
      await console.getByLabel('Title, model or path').fill(item.path);
      await console.getByRole('button', { name: 'Find' }).click();
      await console
        .getByRole('row')
        .filter({ has: console.getByRole('link', { name: `/vod/${item.path}`, exact: true }) })
        .getByRole('link', { name: 'Stats' })
        .click();
      await console.getByText(`Item ${item.path}`).waitFor();
      expect(new URL(console.url()).search).toBe(`?type=vod&path=${item.path}`);
    } finally {
      await console.context().close();
    }
  });
});
