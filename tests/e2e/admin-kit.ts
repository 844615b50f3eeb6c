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

  remember(name: string, secret: string): void {
    this.secrets.set(name, secret);
  }

  /** The code for a TOTP step after the last one used (the API refuses a replayed step): now's, or the next. */
  freshCode(name: string): string {
    const step = Math.max(Math.floor(Date.now() / 30_000), (this.lastStep.get(name) ?? -1) + 1);
    this.lastStep.set(name, step);
    return totpCode(this.secrets.get(name)!, step * 30_000);
  }

  async signIn(name: string, size: AdminSize): Promise<{ page: Page; errors: string[] }> {
    const opened = await this.site().open({ ...ADMIN_SIZES[size], ageConfirmed: false });
    await opened.page.goto('/admin');
    await opened.page.getByLabel('Name').fill(name);
    await opened.page.getByLabel('Code from your authenticator app').fill(this.freshCode(name));
    await opened.page.getByRole('button', { name: 'Sign in' }).click();
    await opened.page.getByText(`Signed in as ${name}`).waitFor();
    return opened;
  }
}

export const adminShot = (page: Page, prefix: string, name: string, size: AdminSize) =>
  page.screenshot({ path: join(screenshotDir, `${prefix}-${name}-${ADMIN_SIZES[size].width}.png`), fullPage: true });
