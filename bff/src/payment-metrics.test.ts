import { beforeAll, expect, it } from 'vitest';
import { paymentRegistry, declineCode } from './payment-metrics';
import { pay, sendWebhook, startAccountKit, subscriptionIdOf } from './test/account-kit';
import { describeWithKit } from './test/suite';

/** One series' value from the payments registry (0 when absent). */
async function value(name: string, labels: Record<string, string>): Promise<number> {
  const metric = paymentRegistry.getSingleMetric(name);
  if (!metric) throw new Error(`no metric ${name}`);
  const { values } = await metric.get();
  const hit = values.find((v) => Object.entries(labels).every(([k, want]) => String(v.labels[k]) === want));
  return hit?.value ?? 0;
}

describeWithKit('business metrics', startAccountKit, (kit) => {
  let subscriptionId: string;
  const before: Record<string, number> = {};
  const series: Record<string, readonly [string, Record<string, string>]> = {
    signups: ['bff_sales_total', { kind: 'membership' }],
    revenue: ['bff_revenue_total', { currency: 'USD', kind: 'membership' }],
    renewals: ['bff_subscription_events_total', { event: 'renewal' }],
    chargebacks: ['bff_subscription_events_total', { event: 'chargeback' }],
    other: ['bff_subscription_events_total', { event: 'other' }],
  };
  const delta = async (key: string) => (await value(...(series[key] as readonly [string, Record<string, string>]))) - (before[key] ?? 0);

  beforeAll(async () => {
    for (const [key, [name, labels]] of Object.entries(series)) before[key] = await value(name, labels);
  });

  it('counts a sign-up with its money, and a decline by its code', async () => {
    const declinesNow = async () => (await paymentRegistry.getSingleMetric('bff_payment_declines_total')!.get()).values;
    const declinedBefore = (await declinesNow()).reduce((sum, v) => sum + v.value, 0);
    await pay(kit(), { username: 'counted1' });
    await pay(kit(), { username: 'cnt_declined', cardEnding: '0000' });
    expect(await delta('signups')).toBe(1);
    expect(await delta('revenue')).toBeCloseTo(Number(kit().deps.settings.membership.price), 2);
    const declines = await declinesNow();
    expect(declines.reduce((sum, v) => sum + v.value, 0)).toBe(declinedBefore + 1);
    expect(declines.every((v) => /^(?:\d{1,5}|other)$/.test(String(v.labels.code)))).toBe(true);
    subscriptionId = await subscriptionIdOf(kit(), 'counted1');
  });

  it('counts each stored lifecycle event once, a replay not at all, and an unknown event as other', async () => {
    const send = (eventType: string, transactionId: string, fields: object = {}) =>
      sendWebhook(kit(), eventType, { subscriptionId, transactionId, ...fields });
    const revenueBefore = await delta('revenue');
    expect((await send('RenewalSuccess', 'count-renew-1', { billedAmount: '14.99' })).body).toEqual({ status: 'stored' });
    expect((await send('RenewalSuccess', 'count-renew-1', { billedAmount: '14.99' })).body).toEqual({ status: 'duplicate' });
    await send('Chargeback', 'count-cb-1');
    await send('BillingDateChange', 'count-other-1');
    expect(await delta('renewals')).toBe(1);
    expect((await delta('revenue')) - revenueBefore).toBeCloseTo(14.99, 2);
    expect(await delta('chargebacks')).toBe(1);
    expect(await delta('other')).toBe(1);
  });
});

it('keeps decline codes a closed set: a code is its leading number, at most 64 of them, else other', () => {
  expect(declineCode('27 System Error, Please Try Again')).toBe('27');
  expect(declineCode('declined (webhook)')).toBe('other');
  expect(declineCode('123456 too long')).toBe('other');
  for (let i = 0; i < 100; i += 1) declineCode(`${9000 + i} text`);
  expect(declineCode('99999 new')).toBe('other');
  expect(declineCode('27 again')).toBe('27');
});
