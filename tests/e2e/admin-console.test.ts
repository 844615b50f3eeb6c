import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '@media-site/db/admin';
import { DEMO_MEMBER } from '@media-site/ops';
import { repoRoot } from '../../scripts/lib/site';
import { screenshotDir, startSite, type Site } from './browser';
import { AdminKit, addVirtualAuthenticator, confirmWithCode } from './admin-kit';

// The operator console at /admin, through the real front door, as an operator uses it.
const SIZES = { desktop: { width: 1280, height: 800 }, tablet: { width: 820, height: 1180 } } as const;
type Size = keyof typeof SIZES;

describe('the operator console at /admin', () => {
  let site: Site;
  const kit = new AdminKit(() => site);
  const addAdmin = (name: string, role: 'owner' | 'moderator' | 'support') => kit.addWithCli(name, role);
  const signIn = (name: string, size: Size, base = '') => kit.signIn(name, size, base);

  const shot = (page: Page, name: string, size: Size) =>
    page.screenshot({ path: join(screenshotDir, `admin-${name}-${SIZES[size].width}.png`) });

  async function noAxeViolations(page: Page, name: string) {
    const { violations } = await new AxeBuilder({ page }).analyze();
    expect(violations.map((v) => `${name}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  }

  beforeAll(async () => {
    site = await startSite({ demoMember: true });
    await addAdmin('boss', 'owner');
    await addAdmin('helper', 'support');
    await addAdmin('keyholder', 'owner');
  }, 180_000);
  afterAll(() => site?.stop());

  it('is its own bundle: no member chunk holds console code', () => {
    const dist = join(repoRoot, 'frontend/dist');
    const consoleHtml = readFileSync(join(dist, 'admin.html'), 'utf8');
    const consoleFiles = new Set([...consoleHtml.matchAll(/\/assets\/([^"]+)/g)].map((m) => m[1]));
    expect([...consoleFiles].some((f) => f!.endsWith('.js'))).toBe(true);
    const memberJs = readdirSync(join(dist, 'assets')).filter((f) => f.endsWith('.js') && !consoleFiles.has(f));
    expect(memberJs.length).toBeGreaterThan(10);
    for (const file of memberJs) {
      const text = readFileSync(join(dist, 'assets', file), 'utf8');
      expect(text, file).not.toMatch(/api\/admin|Operator console|admin-root/);
    }
    expect(readFileSync(join(dist, 'index.html'), 'utf8')).not.toMatch(/admin/);
  });

  for (const size of Object.keys(SIZES) as Size[]) {
    it(`an owner signs in with a TOTP code, sees the audit log and finds the demo member (${size})`, async () => {
      const { page, errors } = await signIn('boss', size);
      // The dashboard is the owner's first screen (its own test: admin-dashboard.test.ts).
      await page.getByRole('link', { name: 'Audit log' }).click();
      await page.getByRole('cell', { name: 'admin.signin', exact: true }).first().waitFor();
      expect(await page.getByRole('row').filter({ hasText: 'admin.signin' }).first().textContent()).toContain('boss');
      expect(await page.getByRole('link', { name: 'Export CSV' }).getAttribute('href')).toBe('/api/admin/audit.csv');
      await shot(page, 'audit', size);
      await noAxeViolations(page, `audit ${size}`);

      await page.getByRole('link', { name: 'Members' }).click();
      await page.getByLabel('Name, e-mail or payment reference').fill(DEMO_MEMBER.username);
      await page.getByRole('button', { name: 'Find' }).click();
      await page.getByRole('cell', { name: DEMO_MEMBER.username, exact: true }).waitFor();
      await page.getByRole('button', { name: 'Disable…' }).first().click();
      await expect.poll(() => page.evaluate(() => document.activeElement?.id ?? '')).toMatch(/reason$/);
      await shot(page, 'members', size);
      await noAxeViolations(page, `members ${size}`);
      await page.getByRole('button', { name: 'Cancel' }).click();

      await page.getByRole('link', { name: 'Reports' }).click();
      await page.getByRole('heading', { name: 'Reports' }).waitFor();
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByLabel('Name').waitFor();
      // The console's first GET /api/admin/me answers 401 before sign-in: the browser logs it.
      expect(errors.filter((e) => !e.includes('status of 401'))).toEqual([]);
    });
  }

  it('support sees no audit log or reports, and the API refuses them with 403', async () => {
    const { page } = await signIn('helper', 'desktop');
    await page.getByRole('heading', { name: 'Members' }).waitFor();
    expect(await page.getByRole('link', { name: 'Audit log' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Reports' }).count()).toBe(0);
    const status = await page.evaluate(async () => {
      const res = await fetch('/api/admin/audit');
      return { status: res.status, body: (await res.json()) as { error: { message: string } } };
    });
    expect(status.status).toBe(403);
    expect(status.body.error.message).toMatch(/support role may not/);
    // Support's own job: find the member, end their sessions, disable (with a reason) and enable again.
    await page.getByLabel('Name, e-mail or payment reference').fill(DEMO_MEMBER.username);
    await page.getByRole('button', { name: 'Find' }).click();
    await page.getByRole('button', { name: 'End sessions' }).first().click();
    await page
      .getByRole('status')
      .getByText(/session\(s\) ended/)
      .waitFor();
    await page.getByRole('button', { name: 'Disable…' }).first().click();
    await page.getByLabel(`Why disable ${DEMO_MEMBER.username}?`).fill('e2e: support checks the console');
    await page.getByRole('button', { name: `Disable ${DEMO_MEMBER.username}` }).click();
    await page.getByRole('cell', { name: /disabled .*e2e: support checks the console/ }).waitFor();
    await shot(page, 'support', 'desktop');
    await page.getByRole('button', { name: `Enable ${DEMO_MEMBER.username}` }).click();
    await page.getByRole('status').getByText('is enabled again').waitFor();
    // The status comes with the answer; the member list is read again after it: wait for its row.
    await page.getByRole('button', { name: 'End sessions' }).first().waitFor();
  });

  it('an owner registers a passkey and signs in with it (a virtual authenticator through CDP)', async () => {
    // A WebAuthn relying party is a host name, never an IP address: this page is on localhost.
    const base = site.stack.baseUrl.replace('127.0.0.1', 'localhost');
    const { page, errors } = await signIn('keyholder', 'desktop', base);
    await addVirtualAuthenticator(page);
    // Chromium's virtual authenticator picks ML-DSA-44 when the server offers it (a 2,420-byte
    // signature): the passkey below is a post-quantum one.
    await page.getByRole('link', { name: 'Your passkeys' }).click();
    await page.getByText('You have no passkey yet').waitFor();
    await page.getByLabel('Name for a new passkey (optional)').fill('Desk laptop');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    // A new passkey asks for a fresh proof first: with no passkey yet, a new code.
    await confirmWithCode(page, await kit.freshCode('keyholder'));
    await page.getByRole('status').getByText('Passkey "Desk laptop" added').waitFor();
    await page.getByRole('cell', { name: 'Desk laptop', exact: true }).waitFor();
    await shot(page, 'passkeys', 'desktop');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await page.getByText('Signed in as keyholder').or(page.getByRole('alert')).waitFor();
    expect(await page.getByRole('alert').allTextContents()).toEqual([]);
    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('cell', { name: 'admin.passkey_add', exact: true }).waitFor();
    const signIns = page.getByRole('row').filter({ hasText: 'admin.signin' }).filter({ hasText: 'keyholder' });
    expect(await signIns.allTextContents()).toEqual([expect.stringContaining('passkey'), expect.stringContaining('totp')]);
    await shot(page, 'passkey', 'desktop');
    // 401: the session check after sign-out; 403: the first passkey request, before the confirmation.
    expect(errors.filter((e) => !e.includes('status of 401') && !e.includes('status of 403'))).toEqual([]);
  });

  it('a wrong code is refused with the API message, and /admin paths all serve the console', async () => {
    const { page } = await site.open({ ...SIZES.desktop, ageConfirmed: false });
    await page.goto('/admin/members');
    await page.getByLabel('Name').fill('boss');
    const good = new Set([-1, 0, 1].map((d) => totpCode(kit.secretOf('boss'), Date.now() + d * 30_000)));
    const wrong = ['000000', '111111', '222222', '333333'].find((c) => !good.has(c))!;
    await page.getByLabel('Code from your authenticator app').fill(wrong);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').getByText('Sign-in refused: check the name and the code, or use your passkey again.').waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('alert');
    await shot(page, 'signin-refused', 'desktop');
  });

  it('says the server cannot be reached (not "sign in") when the session check fails, and tries again', async () => {
    const { page } = await site.open({ ...SIZES.tablet, ageConfirmed: false });
    let down = true;
    await page.route('**/api/admin/me', (route) =>
      down ? route.fulfill({ status: 503, contentType: 'application/json', body: '{}' }) : route.continue(),
    );
    await page.goto('/admin');
    await page
      .getByRole('alert')
      .getByText('The console cannot reach the server: The server could not answer (503): try again in a moment.')
      .waitFor();
    expect(await page.getByLabel('Code from your authenticator app').count()).toBe(0);
    await shot(page, 'unreachable', 'tablet');
    down = false;
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByLabel('Code from your authenticator app').waitFor();
  });
});
