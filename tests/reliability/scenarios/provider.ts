import { startStack } from '../../src/stack';
import { figure, type Figure } from '../lib/figures';
import { round, sleep, startTraffic, summarize } from '../lib/http';
import { failProvider, payMembership, type PaymentResult } from '../lib/payment';

const message = (r: PaymentResult) => {
  const b = r.body as { message?: unknown; error?: { message?: unknown } };
  return typeof b.message === 'string' ? b.message : typeof b.error?.message === 'string' ? b.error.message : '';
};

/**
 * The card provider failing (OAuth refused, a 500 on the charge) and stalling (the charge answers
 * after our timeout): each payment fails with its own message, and catalog browsing running at the
 * same time answers as before, fast and without errors.
 */
export async function providerFaults(options: { stalls?: number; connections?: number } = {}): Promise<Figure[]> {
  const stack = await startStack({
    env: {
      CCBILL_CHARGE_TIMEOUT_MS: '3000',
      SIMULATOR_STALL_MS: '6000',
      RATE_LIMIT_PAYMENT_PER_MINUTE: '1000',
      PAYMENT_RATE: '6000r/m',
      PAYMENT_BURST: '200',
    },
  });
  const provider = stack.providerUrl;
  if (!provider) throw new Error('the stack has no provider simulator');
  try {
    const paths = ['/api/updates/1', '/api/photos/2', '/api/videos-by-date/1', '/api/vod/1', '/api/search/model', '/api/models/M'];
    const baseline = startTraffic(stack.baseUrl, (n) => ({ path: paths[n % paths.length] ?? '/' }), {
      connections: options.connections ?? 8,
      maxMs: 3000,
    });
    await sleep(2000);
    const before = summarize(await baseline.stop());

    const traffic = startTraffic(stack.baseUrl, (n) => ({ path: paths[n % paths.length] ?? '/' }), {
      connections: options.connections ?? 8,
      maxMs: 120_000,
    });
    const user = (tag: string) => `rel${tag}${Date.now().toString(36).slice(-6)}`;
    // No bearer is cached yet: the first OAuth call of each kind fails.
    await failProvider(provider, 'frontend-oauth');
    const frontendRefused = await payMembership(stack.baseUrl, user('fo'), '1111');
    await failProvider(provider, 'backend-oauth');
    const backendRefused = await payMembership(stack.baseUrl, user('bo'), '1111');
    const [errorCharge, declined, ...stalled] = await Promise.all([
      payMembership(stack.baseUrl, user('e5'), '0005'),
      payMembership(stack.baseUrl, user('d0'), '0000'),
      ...Array.from({ length: options.stalls ?? 4 }, (_, i) => payMembership(stack.baseUrl, user(`s${i}`), '0002')),
    ]);
    const approved = await payMembership(stack.baseUrl, user('ok'), '1111');
    const during = summarize(await traffic.stop());

    const stallOk = stalled.every(
      (r) => r.step === 4 && r.status === 202 && (r.body as { status?: string }).status === 'unknown' && message(r).length > 0,
    );
    const stallMs = Math.max(...stalled.map((r) => r.ms));
    return [
      figure(
        'provider OAuth refused at step 1 / step 3',
        `${frontendRefused.status} "${message(frontendRefused)}" / ${backendRefused.status} "${message(backendRefused)}"`,
        '503 with a message, at that step',
        frontendRefused.step === 1 &&
          frontendRefused.status === 503 &&
          message(frontendRefused) !== '' &&
          backendRefused.step === 3 &&
          backendRefused.status === 503 &&
          message(backendRefused) !== '',
      ),
      figure(
        'provider 500 on the charge',
        `${errorCharge.status} ${JSON.stringify((errorCharge.body as { status?: string }).status)} "${message(errorCharge)}"`,
        '202 unknown with a message',
        errorCharge.step === 4 && errorCharge.status === 202 && message(errorCharge) !== '',
      ),
      figure(
        `provider stalls ${stalled.length} charges past our 3 s timeout`,
        `${stalled.map((r) => r.status).join(', ')} after at most ${round(stallMs / 1000, 1)} s`,
        '202 unknown with a message, each',
        stallOk,
      ),
      figure(
        'declined card, then a good card once the provider is healthy',
        `${declined.status} ${JSON.stringify((declined.body as { status?: string }).status)}, then approved: ${String((approved.body as { approved?: unknown }).approved)}`,
        'declined; approved',
        declined.status === 200 &&
          (declined.body as { status?: string }).status === 'declined' &&
          (approved.body as { approved?: unknown }).approved === true,
      ),
      figure(
        'catalog while the provider failed and stalled: requests, errors/5xx',
        `${during.requests}, ${during.errors + during.s5xx}`,
        '0 errors',
        during.errors + during.s5xx === 0 && during.requests > 0,
      ),
      figure(
        'catalog p99 / max before vs during the provider faults',
        `${before.p99} / ${before.max} ms vs ${during.p99} / ${during.max} ms`,
        'no stall (max < 1000 ms)',
        during.max < 1000,
      ),
    ];
  } finally {
    await stack.stop();
  }
}
