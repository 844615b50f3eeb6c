import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshotDir } from './browser';
import { fillPaymentForm, startPaymentSite, type PaymentSite } from './payment-kit';

/**
 * The join page a payer trusts, in Chromium against the provider simulator: it opens with
 * what members get and the card form, the e-mail route comes after the form as the way for people who
 * can't pay by card; a declined card (number ending 0000) says what happened and what to try, and the
 * frame shrinks to its content instead of leaving hundreds of empty pixels.
 */
let site: PaymentSite;

const VIEWPORTS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;
// The form's own height plus the status lines: more than this under the last line is empty frame.
const MAX_EMPTY_PX = 48;

beforeAll(async () => {
  site = await startPaymentSite();
}, 300_000);

afterAll(async () => {
  await site?.stop();
});

async function openJoin(viewport: { width: number; height: number }): Promise<Page> {
  const page = await site.newPage();
  await page.setViewportSize(viewport);
  await page.goto('/join');
  await page.frameLocator('iframe.join-frame').getByRole('button', { name: /^Pay / }).waitFor();
  return page;
}

const shot = (page: Page, name: string, width: number, fullPage = false) =>
  page.screenshot({ path: join(screenshotDir, `join-${name}-${width}.png`), fullPage });

/** Empty pixels between the last thing in the frame and the frame's bottom edge. */
async function emptyBelowContent(page: Page): Promise<number> {
  const frameBox = await page.locator('iframe.join-frame').boundingBox();
  const frame = page.frames().find((f) => f.url().endsWith('/ccbill'));
  if (!frameBox || !frame) throw new Error('no payment frame');
  const lastBottom = await frame.evaluate(() => {
    const form = document.querySelector('form.payment-form');
    return form ? form.getBoundingClientRect().bottom : 0;
  });
  return frameBox.height - lastBottom;
}

describe.each(Object.entries(VIEWPORTS))('join page (%s)', (_name, viewport) => {
  it('opens with what members get and the card form; the e-mail route is the alternative below it', async () => {
    const page = await openJoin(viewport);
    const main = page.locator('main');
    const text = await main.innerText();
    // What members get and the price come first, before any mention of the e-mail route.
    expect(text.indexOf('Members get')).toBeGreaterThan(-1);
    expect(text.indexOf('Members get')).toBeLessThan(text.indexOf('Join by card'));
    expect(text.indexOf('Join by card')).toBeLessThan(text.indexOf("Can't pay by card?"));
    expect(text).toContain('$14.99');
    expect(text).not.toContain('While card payments are being set up');
    // The spec's content is all still there.
    expect(text).toContain('money-transfer service');
    expect(text).toContain('not part of the membership');
    expect(text).toContain("card billing provider's consumer support");
    // The form's frame sits above the e-mail route on the page.
    const frameTop = (await page.locator('iframe.join-frame').boundingBox())?.y ?? Infinity;
    const emailTop = (await main.getByRole('heading', { name: "Can't pay by card?" }).boundingBox())?.y ?? 0;
    expect(frameTop).toBeLessThan(emailTop);
    // On a desktop the form starts on the first screen.
    if (viewport.width >= 1000) expect(frameTop).toBeLessThan(viewport.height);
    await shot(page, 'page', viewport.width);
    await page.context().close();
  });

  it("says the card was not approved, in the processor's words, that nothing was charged and what to try; the frame fits its content", async () => {
    const page = await openJoin(viewport);
    const form = page.frameLocator('iframe.join-frame');
    await fillPaymentForm(site, form, `e2e_decl_${viewport.width}`, '0000');
    await form.getByRole('button', { name: /^Pay / }).click();
    await form.locator('.payment-status').getByText('Transaction failed.').waitFor({ timeout: 30_000 });
    const detail = await form.getByTestId('payment-detail').innerText();
    // The simulator's decline is the processor's "System Error, Please Try Again": quoted, not
    // contradicted by "your card was declined".
    expect(detail).toContain('The card processor did not approve the charge. It said: “27 System Error, Please Try Again”');
    expect(detail).toContain('Nothing was charged. Try again in a moment, or try another card.');
    expect(detail).not.toMatch(/declined/i);
    // The frame follows its content (it reports its height on every change).
    let empty = await emptyBelowContent(page);
    for (let i = 0; i < 20 && empty > MAX_EMPTY_PX; i += 1) {
      await page.waitForTimeout(100);
      empty = await emptyBelowContent(page);
    }
    expect(empty).toBeLessThanOrEqual(MAX_EMPTY_PX);
    expect(empty).toBeGreaterThanOrEqual(0);
    await form.getByText('Transaction failed.').scrollIntoViewIfNeeded();
    await shot(page, 'declined', viewport.width);
    await page.context().close();
  });
});
