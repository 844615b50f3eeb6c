import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKnex } from '@media-site/db';
import { totpCode } from '@media-site/db/admin';
import { DEMO_MEMBER } from '@media-site/ops';
import { runOpsCaptured } from '@media-site/ops/cli';
import { screenshotDir, signInAsDemo, startSite, type Site } from './browser';

// Support's members and payments in the console, through the real front door: find the
// demo member by e-mail and by a payment reference, read their attempts, extend the membership (the
// member's account page shows the new date), settle a stuck attempt, end their sessions; a moderator
// neither sees the screen nor gets an answer from its routes.
const SIZES = { desktop: { width: 1280, height: 800 }, tablet: { width: 820, height: 1180 } } as const;
type Size = keyof typeof SIZES;
const MINUTE = 60_000;

describe('members and payments in the operator console', () => {
  let site: Site;
  const secrets = new Map<string, string>();
  const lastStep = new Map<string, number>();
  const attempts: Record<Size | 'race', number> = { desktop: 0, tablet: 0, race: 0 };

  function freshCode(name: string): string {
    const step = Math.max(Math.floor(Date.now() / 30_000), (lastStep.get(name) ?? -1) + 1);
    lastStep.set(name, step);
    return totpCode(secrets.get(name)!, step * 30_000);
  }

  async function signIn(name: string, size: Size): Promise<{ page: Page; errors: string[] }> {
    const opened = await site.open({ ...SIZES[size], ageConfirmed: false });
    await opened.page.goto('/admin');
    await opened.page.getByLabel('Name').fill(name);
    await opened.page.getByLabel('Code from your authenticator app').fill(freshCode(name));
    await opened.page.getByRole('button', { name: 'Sign in' }).click();
    // A refusal fails at once with the console's own sentence (a sign-in that hung in one CI run said nothing).
    const signedIn = opened.page.getByText(`Signed in as ${name}`);
    await signedIn.or(opened.page.getByRole('alert')).first().waitFor();
    if (!(await signedIn.isVisible()))
      throw new Error(`${name} was not signed in: ${await opened.page.getByRole('alert').first().innerText()}`);
    return opened;
  }

  const shot = (page: Page, name: string, size: Size) =>
    page.screenshot({ path: join(screenshotDir, `admin-members-${name}-${SIZES[size].width}.png`), fullPage: true });

  beforeAll(async () => {
    site = await startSite({ demoMember: true });
    const knex = createKnex(site.stack.databaseUrl);
    try {
      for (const [name, role] of [
        ['helper', 'support'],
        // A second support admin: a TOTP step is used once, and three sign-ins in one step window would wait.
        ['helper_two', 'support'],
        ['checker', 'moderator'],
      ] as const) {
        const added = await runOpsCaptured(['admin', 'add', name, '--role', role], { env: { USER: 'e2e' }, knex });
        expect(added.code, added.err).toBe(0);
        secrets.set(name, /secret: (\S+)/.exec(added.out)?.[1] ?? '');
      }
      // A VOD charge of the demo member's whose answer was lost 20 minutes ago: stuck, for reconcile.
      const member = await knex('members').where({ username: DEMO_MEMBER.username }).first('id');
      const now = Date.now();
      for (const size of ['desktop', 'tablet', 'race'] as const) {
        const [id] = await knex('payment_attempts').insert({
          payment_token: `e2e-stuck-${size}`,
          kind: 'vod',
          vod_id: null,
          member_id: member.id,
          username: DEMO_MEMBER.username,
          password_hash: null,
          email: 'demo@example.com',
          amount: '24.50',
          currency_code: 840,
          status: 'unknown',
          reservation: `e2e:${size}`,
          provider_subscription_id: null,
          decline_text: 'provider timeout',
          created_at: now - 20 * MINUTE,
          updated_at: now - 20 * MINUTE,
        });
        attempts[size] = Number(id);
      }
    } finally {
      await knex.destroy();
    }
  }, 180_000);
  afterAll(() => site?.stop());

  for (const size of Object.keys(SIZES) as Size[]) {
    it(`support finds the demo member by e-mail and by attempt id, extends, reconciles and ends sessions (${size})`, async () => {
      const member = await site.open({ ...SIZES[size] });
      await signInAsDemo(member.page);
      await member.page.goto('/account');
      const before = await member.page.getByText(/until \d{4}-\d{2}-\d{2}/).textContent();

      const { page, errors } = await signIn('helper', size);
      const search = page.getByLabel('Name, e-mail or payment reference');
      await search.fill('demo@example.com');
      await page.getByRole('button', { name: 'Find' }).click();
      await page.getByRole('button', { name: DEMO_MEMBER.username, exact: true }).waitFor();
      await search.fill(String(attempts[size]));
      await page.getByRole('button', { name: 'Find' }).click();
      await page.getByText('matches the payment reference').waitFor();
      await shot(page, 'search', size);
      await page.getByRole('button', { name: DEMO_MEMBER.username, exact: true }).click();

      // The detail: membership, sessions, the stuck attempt with where it stands.
      await page.getByRole('heading', { name: DEMO_MEMBER.username }).waitFor();
      const row = page
        .getByRole('row')
        .filter({ hasText: `VOD` })
        .filter({ has: page.getByRole('cell', { name: String(attempts[size]), exact: true }) });
      await expect.poll(() => row.textContent()).toMatch(/step 4 of 4.*the answer was lost: provider timeout/);
      expect(await page.getByText(/open, last sign-in/).count()).toBe(1);
      await shot(page, 'detail', size);
      const axe = await new AxeBuilder({ page }).analyze();
      expect(axe.violations.map((v) => `${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);

      // A reason of spaces passes the browser's check; the API's message is shown as it is.
      await page.getByLabel(/Extend the membership by/).fill('30');
      await page.getByLabel('Why?').fill('   ');
      await page.getByRole('button', { name: 'Extend', exact: true }).click();
      await page.getByRole('alert').getByText('reason: give a reason').waitFor();
      await shot(page, 'extend-refused', size);
      await page.getByLabel('Why?').fill('e2e: goodwill after a failed stream');
      await page.getByRole('button', { name: 'Extend', exact: true }).click();
      await page
        .getByRole('status')
        .getByText(/membership now runs until/)
        .waitFor();

      await member.page.reload();
      const after = await member.page.getByText(/until \d{4}-\d{2}-\d{2}/).textContent();
      const dateOf = (text: string | null) => Date.parse(/\d{4}-\d{2}-\d{2}/.exec(text ?? '')![0]);
      expect(dateOf(after) - dateOf(before)).toBe(30 * 86_400_000);

      // Settle the stuck attempt: the provider shows no charge.
      await page.getByRole('button', { name: `Reconcile ${attempts[size]}…` }).click();
      await page.getByLabel('Decline: the provider shows no charge').check();
      await shot(page, 'reconcile', size);
      await page.getByRole('button', { name: `Settle attempt ${attempts[size]}` }).click();
      await page.getByRole('status').getByText(`Attempt ${attempts[size]} is now declined (was unknown).`).waitFor();
      await expect.poll(() => row.textContent()).toMatch(/declined/);
      expect(await page.getByRole('button', { name: `Reconcile ${attempts[size]}…` }).count()).toBe(0);

      await page.getByRole('button', { name: `End ${DEMO_MEMBER.username}'s sessions` }).click();
      await page
        .getByRole('status')
        .getByText(/session\(s\) ended/)
        .waitFor();
      await page.getByText('none open', { exact: true }).waitFor();
      await shot(page, 'done', size);
      expect((await member.page.request.get('/api/me')).status()).toBe(401);
      expect(errors.filter((e) => !e.includes('status of 401') && !e.includes('status of 400'))).toEqual([]);
      await member.page.context().close();
      await page.context().close();
    });
  }

  it('an attempt settled meanwhile (by the CLI) is refused with a sentence, and the list shows its new state', async () => {
    const { page } = await signIn('helper_two', 'desktop');
    await page.getByLabel('Name, e-mail or payment reference').fill(String(attempts.race));
    await page.getByRole('button', { name: 'Find' }).click();
    await page.getByRole('button', { name: DEMO_MEMBER.username, exact: true }).click();
    await page.getByRole('button', { name: `Reconcile ${attempts.race}…` }).click();
    const knex = createKnex(site.stack.databaseUrl);
    try {
      const cli = await runOpsCaptured(['reconcile', 'decline', String(attempts.race)], { env: { USER: 'e2e' }, knex });
      expect(cli.out).toMatch(/declined/);
    } finally {
      await knex.destroy();
    }
    await page.getByLabel('Expire: no answer and no webhook came').check();
    await page.getByRole('button', { name: `Settle attempt ${attempts.race}` }).click();
    await page
      .getByRole('alert')
      .getByText(`attempt ${attempts.race} is already declined: only a stuck attempt can be reconciled`)
      .waitFor();
    await shot(page, 'reconcile-refused', 'desktop');
    const row = page.getByRole('row').filter({ has: page.getByRole('cell', { name: String(attempts.race), exact: true }) });
    await expect.poll(() => row.textContent()).toMatch(/declined by reconciliation/);
    expect(await page.getByRole('button', { name: `Settle attempt ${attempts.race}` }).count()).toBe(0);
    await page.getByRole('button', { name: '← Back to the results' }).click();
    await page.getByRole('button', { name: DEMO_MEMBER.username, exact: true }).waitFor();
    await page.context().close();
  });

  it('a moderator does not see the Members screen, and its routes answer 403', async () => {
    const { page } = await signIn('checker', 'desktop');
    await page.getByRole('heading', { name: 'Reports' }).waitFor();
    expect(await page.getByRole('link', { name: 'Members' }).count()).toBe(0);
    const statuses = await page.evaluate(async (ids) => {
      const json = { method: 'POST', headers: { 'Content-Type': 'application/json' } };
      const answers = await Promise.all([
        fetch('/api/admin/members?q=demo'),
        fetch('/api/admin/members/demo'),
        fetch('/api/admin/members/demo/extend', { ...json, body: JSON.stringify({ days: 1, reason: 'x' }) }),
        fetch('/api/admin/members/demo/signout-all', { method: 'POST' }),
        fetch(`/api/admin/payments/${ids[0]}/reconcile`, { ...json, body: JSON.stringify({ action: 'decline' }) }),
      ]);
      return answers.map((r) => r.status);
    }, Object.values(attempts));
    expect(statuses).toEqual([403, 403, 403, 403, 403]);
    await page.context().close();
  });
});
