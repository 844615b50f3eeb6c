// The provider's subscription management API (CCBill's Data Link `subscriptionManagement.cgi`,
// docs/ccbill-subscription-management.md): one GET with the merchant's account, its Data Link user
// and the action in the query string, answered with a result code (1 done, 0 or a negative code not).

export interface DatalinkSettings {
  /** `https://datalink.ccbill.com/utils/subscriptionManagement.cgi`, or the simulator's. */
  url: string;
  clientAccnum: number;
  clientSubacc: number;
  username: string;
  password: string;
  timeoutMs: number;
}

/**
 * cancelled: the provider stopped the rebilling. refused: it answered with a failure code (nothing
 * changed). unknown: no readable answer in time — it may or may not have cancelled; the
 * Cancellation webhook tells, if it did.
 */
export type CancelResult = { kind: 'cancelled' } | { kind: 'refused'; code: number; meaning: string } | { kind: 'unknown'; reason: string };

/** The result codes (docs/ccbill-subscription-management.md), in short; anything else is "an unknown result code". */
export const DATALINK_CODES: Readonly<Record<number, string>> = {
  0: 'the action failed',
  [-1]: 'the Data Link username, password or account was refused',
  [-2]: 'the subscription id is invalid or its kind does not allow this action',
  [-3]: 'no record of this subscription',
  [-4]: 'the subscription belongs to another account',
  [-5]: 'an argument was invalid or missing',
  [-6]: 'the action is invalid',
  [-7]: 'an internal error at the provider',
  [-8]: "this server's address is not allowed to use the Data Link",
  [-9]: 'the Data Link account is disabled or not allowed this action',
  [-10]: 'the account is not set up for the Data Link',
  [-11]: 'the subscription cannot be discounted',
  [-12]: 'too many failed sign-ins in the last hour',
};

/** The result code in a CSV (`"results"\n"1"`) or XML (`<results>1</results>`) answer. */
export function datalinkResult(text: string): number | undefined {
  const trimmed = text.trim();
  const match = /<results>\s*(-?\d{1,3})\s*<\/results>/.exec(trimmed) ?? /^"?results"?\r?\n"?(-?\d{1,3})"?$/.exec(trimmed);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

/** Stops a subscription's rebilling. Never throws: the caller says what happened. */
export async function cancelSubscription(settings: DatalinkSettings, subscriptionId: string): Promise<CancelResult> {
  const url = new URL(settings.url);
  url.search = new URLSearchParams({
    clientAccnum: String(settings.clientAccnum),
    usingSubacc: String(settings.clientSubacc).padStart(4, '0'),
    username: settings.username,
    password: settings.password,
    action: 'cancelSubscription',
    subscriptionId,
    returnXML: '1',
  }).toString();
  let text: string;
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(settings.timeoutMs) });
    text = (await res.text()).slice(0, 4096);
    if (res.status >= 500) return { kind: 'unknown', reason: `the card processor answered ${res.status}` };
  } catch (err) {
    const name = (err as Error).name;
    return {
      kind: 'unknown',
      reason:
        name === 'TimeoutError' || name === 'AbortError'
          ? 'the card processor did not answer in time'
          : 'the card processor could not be reached',
    };
  }
  const code = datalinkResult(text);
  if (code === undefined) return { kind: 'unknown', reason: 'the card processor gave an answer we could not read' };
  if (code === 1) return { kind: 'cancelled' };
  // -7 covers a temporary error at the provider too: it does not prove that nothing changed.
  if (code === -7) return { kind: 'unknown', reason: 'the card processor had an internal error' };
  return { kind: 'refused', code, meaning: DATALINK_CODES[code] ?? 'an unknown result code' };
}
