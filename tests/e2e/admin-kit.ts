import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { createKnex } from '@media-site/db';
import { totpCode } from '@media-site/db/admin';
import { runOpsCaptured } from '@media-site/ops/cli';
import { screenshotDir, type Site } from './browser';

// What the console's e2e files share: admins made with the CLI or the console, TOTP codes that are
// never a replayed step, and a sign-in at /admin as an operator does it.

export const ADMIN_SIZES = { desktop: { width: 1280, height: 800 }, tablet: { width: 820, height: 1180 } } as const;
export type AdminSize = keyof typeof ADMIN_SIZES;

export class AdminKit {
  private readonly secrets = new Map<string, string>();
  private readonly lastStep = new Map<string, number>();

  constructor(private readonly site: () => Site) {}

  async withKnex<T>(use: (knex: ReturnType<typeof createKnex>) => Promise<T>): Promise<T> {
    const knex = createKnex(this.site().stack.databaseUrl);
    try {
      return await use(knex);
    } finally {
      await knex.destroy();
    }
  }

  /** `ops admin add` as an operator at the terminal; keeps the secret it prints once. */
  async addWithCli(name: string, role: 'owner' | 'moderator' | 'support'): Promise<void> {
    await this.withKnex(async (knex) => {
      const added = await runOpsCaptured(['admin', 'add', name, '--role', role], { env: { USER: 'e2e' }, knex });
      if (added.code !== 0) throw new Error(`admin add ${name}: ${added.err}`);
      this.remember(name, /secret: (\S+)/.exec(added.out)?.[1] ?? '');
    });
  }

  /** A new secret (added, or given anew): no step of it is spent yet. */
  remember(name: string, secret: string): void {
    this.secrets.set(name, secret);
    this.lastStep.delete(name);
  }

  /**
   * The code for a TOTP step after the last one used (the API refuses a replayed step): now's, or
   * the next. The API takes a step at most one ahead of its clock, so when both are spent (a sign-in
   * and two confirmations in the same 30 s) the kit does what the clock passing would do instead of
   * waiting up to a minute for it: it moves the admin's spent step (`admins.totp_last_step`) back
   * before now and starts over. The replay rule itself is tested at the API
   * (bff/src/routes/api/admin/admin.test.ts); here waiting would only cost wall time.
   */
  async freshCode(name: string): Promise<string> {
    const now = Math.floor(Date.now() / 30_000);
    let step = Math.max(now, (this.lastStep.get(name) ?? -1) + 1);
    if (step > now + 1) {
      await this.withKnex((knex) =>
        knex('admins')
          .where({ name })
          .update({ totp_last_step: now - 1 }),
      );
      step = now;
    }
    this.lastStep.set(name, step);
    return totpCode(this.secrets.get(name)!, step * 30_000);
  }

  secretOf(name: string): string {
    return this.secrets.get(name)!;
  }

  async signIn(name: string, size: AdminSize, base = ''): Promise<{ page: Page; errors: string[] }> {
    const opened = await this.site().open({ ...ADMIN_SIZES[size], ageConfirmed: false });
    await opened.page.goto(`${base}/admin`);
    await opened.page.getByLabel('Name').fill(name);
    await opened.page.getByLabel('Code from your authenticator app').fill(await this.freshCode(name));
    await opened.page.getByRole('button', { name: 'Sign in' }).click();
    await opened.page.getByText(`Signed in as ${name}`).waitFor();
    return opened;
  }
}

/**
 * Answers the console's "Confirm it is you" dialog (a change to admins or passkeys asks for it) with
 * a fresh code, and waits for it to close.
 */
export async function confirmWithCode(page: Page, code: string): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Confirm it is you' });
  await dialog.getByLabel('New code from your authenticator app').fill(code);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await dialog.waitFor({ state: 'hidden' });
}

/**
 * A platform passkey authenticator for the page (Chromium's virtual one, through CDP) that verifies
 * its user and answers at once. WebAuthn needs a host name: open the console on localhost.
 */
export async function addVirtualAuthenticator(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
}

export const adminShot = (page: Page, prefix: string, name: string, size: AdminSize) =>
  page.screenshot({ path: join(screenshotDir, `${prefix}-${name}-${ADMIN_SIZES[size].width}.png`), fullPage: true });
