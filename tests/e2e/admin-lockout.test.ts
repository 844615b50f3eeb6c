import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '@media-site/db/admin';
import { runOpsCaptured } from '@media-site/ops/cli';
import { screenshotDir, startSite, type Site } from './browser';
import { AdminKit, addVirtualAuthenticator, confirmWithCode } from './admin-kit';

// Through the real front door, in Chromium: an attacker who knows only the owner's name cannot keep
// the owner out with wrong codes, and a passkey that a stolen console session registered stops
// working at the documented recovery (`admin totp`).

const PHONE = { width: 390, height: 844 };

describe('the console: wrong codes lock nobody out; a stolen session leaves nothing behind', () => {
  let site: Site;
  const kit = new AdminKit(() => site);
  /** WebAuthn wants a host name, never an IP address: the console is opened on localhost. */
  const base = () => site.stack.baseUrl.replace('127.0.0.1', 'localhost');

  async function addPasskey(page: Page, name: string, code: string): Promise<void> {
    await page.getByRole('link', { name: 'Your passkeys' }).click();
    await page.getByLabel('Name for a new passkey (optional)').fill(name);
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await confirmWithCode(page, code);
    await page.getByRole('status').getByText(`Passkey "${name}" added`).waitFor();
  }

  /** Wrong codes for `name` as a script would send them, through the front door. */
  async function wrongCodes(name: string, count: number): Promise<number[]> {
    const good = new Set([-1, 0, 1].map((d) => totpCode(kit.secretOf(name), Date.now() + d * 30_000)));
    const wrong = ['000000', '111111', '222222', '333333'].find((c) => !good.has(c))!;
    const statuses: number[] = [];
    for (let i = 0; i < count; i += 1) {
      const res = await fetch(`${site.stack.baseUrl}/api/admin/signin/totp`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Origin: site.stack.baseUrl },
        body: JSON.stringify({ name, code: wrong }),
      });
      statuses.push(res.status);
    }
    return statuses;
  }

  const shot = (page: Page, name: string) =>
    page.screenshot({ path: join(screenshotDir, `admin-lockout-${name}-390.png`), fullPage: true });

  const signOut = async (page: Page) => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Name').waitFor();
  };

  beforeAll(async () => {
    // Every request here comes from 127.0.0.1: the per-address request rate is not this test's subject.
    site = await startSite({ env: { RATE_LIMIT_ADMIN_SIGNIN_PER_MINUTE: '100' } });
    await kit.addWithCli('boss', 'owner');
    await kit.addWithCli('deputy', 'owner');
  }, 180_000);
  afterAll(() => site?.stop());

  it("five wrong codes for the owner's name do not stop the owner's passkey, nor their code from a new phone", async () => {
    const desk = await kit.signIn('boss', 'desktop', base());
    await addVirtualAuthenticator(desk.page);
    await addPasskey(desk.page, 'Desk key', await kit.freshCode('boss'));
    await signOut(desk.page);

    // Someone who knows only the name: five wrong codes, each a plain refusal (no lock, no 429).
    expect(await wrongCodes('boss', 5)).toEqual([401, 401, 401, 401, 401]);

    // The passkey: straight in.
    await desk.page.getByRole('button', { name: 'Use a passkey' }).click();
    await desk.page.getByText('Signed in as boss').waitFor();

    // A new phone with a code: the name's budget for new browsers is spent, so the console asks for
    // the proof of work (the widget solves it in about a second), then the next code signs in.
    const phone = await site.open({ ...PHONE, ageConfirmed: false });
    await phone.page.goto(`${base()}/admin`);
    await phone.page.getByLabel('Name').fill('boss');
    // Refused before it was checked, the code is not spent: the same one goes again with the proof.
    const code = await kit.freshCode('boss');
    await phone.page.getByLabel('Code from your authenticator app').fill(code);
    await phone.page.getByRole('button', { name: 'Sign in' }).click();
    await phone.page
      .getByRole('alert')
      .getByText(/confirm you are a person/)
      .waitFor();
    const signInButton = phone.page.getByRole('button', { name: 'Sign in' });
    await expect.poll(() => signInButton.isEnabled(), { timeout: 20_000 }).toBe(true);
    await shot(phone.page, 'proof-of-work');
    await phone.page.getByLabel('Code from your authenticator app').fill(code);
    await signInButton.click();
    await phone.page.getByText('Signed in as boss').waitFor();
    const { violations } = await new AxeBuilder({ page: phone.page }).analyze();
    expect(violations.map((v) => `${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  });

  it('a passkey a stolen session registers is refused after `admin totp`; the cookie alone registers none', async () => {
    const victim = await kit.signIn('deputy', 'desktop', base());
    const stolen = (await victim.page.context().cookies()).filter((c) => c.name === 'admin_sid');
    expect(stolen).toHaveLength(1);

    // The thief's browser with the copied cookie: adding a passkey asks for a fresh proof they lack.
    const thief = await site.open({ ...PHONE, ageConfirmed: false });
    await thief.page.context().addCookies(stolen);
    await thief.page.goto(`${base()}/admin/passkeys`);
    await addVirtualAuthenticator(thief.page);
    await thief.page.getByRole('button', { name: 'Add a passkey' }).click();
    const dialog = thief.page.getByRole('dialog', { name: 'Confirm it is you' });
    await dialog.waitFor();
    await shot(thief.page, 'confirm-asked');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await thief.page.getByRole('alert').getByText('Nothing was changed: the change needs you to confirm it is you.').waitFor();
    expect(await thief.page.getByText('You have no passkey yet').count()).toBe(1);

    // The worst case: the victim had just confirmed in that session; the thief registers a passkey.
    const confirmed = await victim.page.evaluate(
      async (code) =>
        (
          await fetch('/api/admin/confirm/totp', {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ code }),
          })
        ).status,
      await kit.freshCode('deputy'),
    );
    expect(confirmed).toBe(200);
    await thief.page.getByLabel('Name for a new passkey (optional)').fill('Not mine');
    await thief.page.getByRole('button', { name: 'Add a passkey' }).click();
    await thief.page.getByRole('status').getByText('Passkey "Not mine" added').waitFor();

    // The documented recovery, at the operator's terminal: a new code secret; every session ends and every passkey goes.
    const recovered = await kit.withKnex((knex) => runOpsCaptured(['admin', 'totp', 'deputy'], { env: { USER: 'e2e' }, knex }));
    expect(recovered.code, recovered.err).toBe(0);
    expect(recovered.out).toMatch(/1 passkey\(s\) revoked/);
    kit.remember('deputy', /secret: (\S+)/.exec(recovered.out)?.[1] ?? '');

    await thief.page.reload();
    await thief.page.getByRole('button', { name: 'Use a passkey' }).click();
    await thief.page.getByRole('alert').getByText('Sign-in refused: check the name and the code, or use your passkey again.').waitFor();
    await shot(thief.page, 'thief-refused');
    // The real admin signs in with the new secret.
    await victim.page.reload();
    await victim.page.getByLabel('Name').fill('deputy');
    await victim.page.getByLabel('Code from your authenticator app').fill(await kit.freshCode('deputy'));
    await victim.page.getByRole('button', { name: 'Sign in' }).click();
    await victim.page.getByText('Signed in as deputy').waitFor();
  });
});
