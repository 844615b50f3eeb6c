import type { Page, Request } from 'playwright-core';

/**
 * "Every request the page made has finished": what the e2e tests wait for before they read pixels,
 * run axe or compare layouts. Playwright's `networkidle` (no connection for 500 ms) never comes while
 * a muted trailer loops and fetches ranges, and waits on the clock otherwise: under a busy core a
 * VOD page's trailer kept it from settling for 30 s (seen in full-suite runs on a busy two-core machine). Media (video and
 * audio) and event streams are left out; every other request (documents, scripts, API, images,
 * fonts) is counted from the page's creation, so nothing in flight before the wait is missed.
 */
const inFlight = new WeakMap<Page, Set<Request>>();
const LONG_LIVED = new Set(['media', 'eventsource', 'websocket']);

/** Starts counting `page`'s requests; open()/openPage() call it on every page they make. */
export function trackRequests(page: Page): void {
  const pending = new Set<Request>();
  inFlight.set(page, pending);
  page.on('request', (request) => {
    if (!LONG_LIVED.has(request.resourceType())) pending.add(request);
  });
  const done = (request: Request) => pending.delete(request);
  page.on('requestfinished', done);
  page.on('requestfailed', done);
}

/**
 * Resolves once the page's load event has fired and no counted request has been in flight for
 * `quietMs`; a request that starts during the quiet window restarts it. Fails after `timeout` naming
 * what is still pending.
 */
export async function settled(page: Page, { quietMs = 300, timeout = 30_000 } = {}): Promise<void> {
  const pending = inFlight.get(page);
  if (!pending) throw new Error('settled(): the page was not opened through site.open()/openPage() (trackRequests)');
  await page.waitForLoadState('load', { timeout });
  const deadline = Date.now() + timeout;
  let quietSince = pending.size === 0 ? Date.now() : Infinity;
  while (Date.now() - quietSince < quietMs) {
    if (Date.now() > deadline) {
      const names = [...pending].map((request) => `${request.resourceType()} ${request.url()}`);
      throw new Error(`settled(): still waiting after ${timeout} ms for ${names.join(', ')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
    if (pending.size > 0) quietSince = Infinity;
    else if (quietSince === Infinity) quietSince = Date.now();
  }
}
