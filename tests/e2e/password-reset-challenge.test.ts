import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createKnex } from '@media-site/db';
import { catalogCli } from '../src/catalog-cli';
import { screenshotDir, stackWithBrowser } from './browser';

/**
 * "Forgot password?" once others spent the name's budget for unknown browsers: through nginx (its
 * CSP included), the bff and a real Chromium at phone width, the form shows the sign-in's
 * proof-of-work widget, which solves in its worker, and the request goes again on its own. The
 * links the others had mailed to the member all still work: none was cancelled.
 */
const site = stackWithBrowser({ env: { RATE_LIMIT_LOGIN_PER_MINUTE: '1000' } });

describe('forgot password past the budget', () => {
  it('shows the widget, solves it and sends the request, at phone width, within the CSP; earlier links stay live', async () => {
    const username = 'reset_pow';
    const email = `${username}@example.com`;
    expect((await catalogCli(site.stack, 'member', 'add', username, '--password', 'correct horse battery', '--email', email)).code).toBe(0);
    const context = await site.browser.newContext({ baseURL: site.stack.baseUrl, viewport: { width: 390, height: 844 } });
    await context.addInitScript(() => window.localStorage.setItem('ageConfirmed', 'true'));
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      // The 403 that asks for the proof is expected; anything else (a CSP refusal above all) is not.
      if (message.type() === 'error' && !message.text().includes('status of 403')) problems.push(message.text());
    });

    // Someone else asks for the member's links until the name's budget is spent.
    for (let i = 0; i < 3; i += 1) {
      const res = await page.request.post('/api/password-reset', { data: { login: username }, headers: { Origin: site.stack.baseUrl } });
      expect(res.status()).toBe(202);
    }
    const refused = await page.request.post('/api/password-reset', { data: { login: username }, headers: { Origin: site.stack.baseUrl } });
    expect(refused.status()).toBe(403);
    expect((await refused.json()).error.code).toBe('challenge_required');

    const sent: { altcha?: string; status?: number }[] = [];
    page.on('response', async (response) => {
      if (!response.url().endsWith('/api/password-reset')) return;
      const body = response.request().postDataJSON() as { altcha?: string } | null;
      sent.push({ altcha: body?.altcha, status: response.status() });
    });
    await page.goto('/forgot-password');
    await page.getByLabel('Username or e-mail').fill(username);
    expect(await page.locator('altcha-widget').count()).toBe(0);
    await page.getByRole('button', { name: 'Send the link' }).click();
    await page.locator('altcha-widget').waitFor({ state: 'visible' });
    await page.screenshot({ path: join(screenshotDir, 'reset-challenge-390.png') });
    const box = await page.locator('altcha-widget').boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
    await page
      .getByText('If an account matches, we have sent a link to its e-mail address. It works for one hour.')
      .waitFor({ timeout: 30_000 });
    expect(sent.map((s) => s.status)).toEqual([403, 202]);
    expect(sent[1]?.altcha).toMatch(/^[A-Za-z0-9+/=]{100,}$/);

    const knex = createKnex(site.stack.databaseUrl);
    try {
      const member = await knex('members').where({ username }).first('id');
      const live = await knex('password_resets').where({ member_id: member.id }).whereNull('used_at');
      expect(live).toHaveLength(3);
    } finally {
      await knex.destroy();
    }
    expect(problems).toEqual([]);
    await context.close();
  });
});
