import type { Browser, FrameLocator, Page } from 'playwright-core';
import { createKnex } from '@media-site/db';
import { testCardNumber } from '@media-site/simulator/luhn';
import { launchChromium } from '../src/chromium';
import { startStack, type Stack } from '../src/stack';

export const PASSWORD = 'correct horse battery';

export interface PaymentSite {
  stack: Stack;
  browser: Browser;
  providerUrl: string;
  logLines: string[];
  cardsUsed: string[];
  newPage(): Promise<Page>;
  stop(): Promise<void>;
}

/**
 * The whole site against the provider simulator, with a short charge timeout (the 0002 card stalls
 * past it).
 */
/** `env`: more variables for the services (e.g. looser limits for a test that signs in often). */
export async function startPaymentSite(env: NodeJS.ProcessEnv = {}): Promise<PaymentSite> {
  const logLines: string[] = [];
  const stack = await startStack({
    env: {
      LOG_LEVEL: 'debug',
      CCBILL_CHARGE_TIMEOUT_MS: '3000',
      SIMULATOR_STALL_MS: '6000',
      RATE_LIMIT_PAYMENT_PER_MINUTE: '1000',
      RATE_LIMIT_LOGIN_PER_MINUTE: '1000',
      MEDIA_REVOCATION_INTERVAL_S: '5',
      ...env,
    },
    onLine: (name, line) => logLines.push(`[${name}] ${line}`),
  });
  if (!stack.providerUrl) throw new Error('the stack did not start the provider simulator');
  const browser = await launchChromium();
  return {
    stack,
    browser,
    providerUrl: stack.providerUrl,
    logLines,
    cardsUsed: [],
    async newPage() {
      const context = await browser.newContext({ baseURL: stack.baseUrl });
      await context.addInitScript(() => window.localStorage.setItem('ageConfirmed', 'true'));
      return context.newPage();
    },
    async stop() {
      await browser.close();
      await stack.stop();
    },
  };
}

/** The card and address part of the payment form (a VOD purchase has no username or password). */
export async function fillCardFields(site: PaymentSite, form: Page | FrameLocator, email: string, cardEnding = '1111'): Promise<void> {
  const card = testCardNumber(cardEnding);
  site.cardsUsed.push(card);
  const fields: [string, string][] = [
    ['E-mail', email],
    ['Name on card', 'Ann Example'],
    ['Card number', card],
    ['CVV2', '737'],
    ['First name', 'Ann'],
    ['Last name', 'Example'],
    ['Address', '1 Main Street'],
    ['City', 'Springfield'],
    ['Postal code', '62701'],
    ['Phone number', '+1 555 0100 200'],
  ];
  for (const [label, value] of fields) await form.getByLabel(label, { exact: true }).fill(value);
  // Pickers: the country (the browser's language chose one already), then its state.
  await form.getByLabel('Country', { exact: true }).selectOption('US');
  await form.getByLabel('State or region', { exact: true }).selectOption('IL');
  await form.getByLabel('Expiration month', { exact: true }).selectOption('12');
  await form.getByLabel('Expiration year', { exact: true }).selectOption(String(new Date().getFullYear() + 1));
}

/** Fills the whole join form (on /ccbill, or inside the /join frame) with a test card ending in `cardEnding`. */
export async function fillPaymentForm(site: PaymentSite, form: Page | FrameLocator, username: string, cardEnding: string): Promise<void> {
  await form.getByLabel('Username', { exact: true }).fill(username);
  await form.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await fillCardFields(site, form, `${username}@example.com`, cardEnding);
}

export async function paymentStatus(page: Page, text: string | RegExp, timeout = 30_000): Promise<string> {
  const status = page.locator('.payment-status');
  await status.getByText(text).waitFor({ timeout });
  return (await status.innerText()).trim();
}

export async function providerCharges(site: PaymentSite): Promise<{ passThrough: Record<string, string>; approved: boolean }[]> {
  return (
    (await (await fetch(`${site.providerUrl}/_sim/charges`)).json()) as {
      charges: { passThrough: Record<string, string>; approved: boolean }[];
    }
  ).charges;
}

export async function failNext(site: PaymentSite, step: 'frontend-oauth' | 'backend-oauth' | 'payment-token'): Promise<void> {
  await fetch(`${site.providerUrl}/_sim/fail`, { method: 'POST', body: JSON.stringify({ step, count: 1 }) });
}

export async function firstPhoto(databaseUrl: string): Promise<string> {
  const knex = createKnex(databaseUrl);
  try {
    const row = await knex('photoset_files as f')
      .join('photosets as p', 'p.id', 'f.photoset_id')
      .orderBy(['p.id', 'f.position'])
      .first('p.path', 'f.filename');
    return `/members/photos/${encodeURIComponent(row.path)}/${encodeURIComponent(row.filename)}`;
  } finally {
    await knex.destroy();
  }
}

/** Every row of every table, as text, to search for data that must never be stored. */
export async function databaseDump(databaseUrl: string): Promise<string> {
  const knex = createKnex(databaseUrl);
  try {
    const tables: { name: string }[] = await knex('sqlite_master').where({ type: 'table' }).select('name');
    const parts: string[] = [];
    for (const { name } of tables) parts.push(JSON.stringify(await knex(name).select('*')));
    return parts.join('\n');
  } finally {
    await knex.destroy();
  }
}
