import { BearerSource, type ClientCredentials } from './oauth';
import { PROVIDER_ACCEPT, providerCall, providerErrorOf } from './http';

export interface ProviderSettings {
  baseUrl: string;
  clientAccnum: number;
  clientSubacc: number;
  frontend: ClientCredentials;
  backend: ClientCredentials;
  authTimeoutMs: number;
  chargeTimeoutMs: number;
}

export interface ChargeTerms {
  initialPrice: string;
  initialPeriod: number;
  recurringPrice: string;
  recurringPeriod: number;
  rebills: number;
  currencyCode: number;
  passThroughInfo: { name: string; value: string }[];
}

/**
 * approved / declined: the provider decided. rejected: it refused the request (4xx), nothing was
 * charged. unknown: a timeout, a network error or a 5xx — the card may or may not have been charged.
 */
export type ChargeResult =
  | { kind: 'approved'; subscriptionId: string | null }
  | { kind: 'declined'; declineCode: string; declineText: string }
  | { kind: 'rejected'; status: number; errorCode: string; message: string }
  | { kind: 'unknown'; reason: string };

export class CcbillClient {
  readonly frontendBearer: BearerSource;
  readonly backendBearer: BearerSource;

  constructor(readonly settings: ProviderSettings) {
    this.frontendBearer = new BearerSource(settings.baseUrl, settings.frontend, settings.authTimeoutMs);
    this.backendBearer = new BearerSource(settings.baseUrl, settings.backend, settings.authTimeoutMs);
  }

  /** One charge call, never retried: a retry could charge twice. */
  async charge(paymentTokenId: string, terms: ChargeTerms): Promise<ChargeResult> {
    const { accessToken } = await this.backendBearer.token();
    const res = await providerCall(
      `${this.settings.baseUrl}/transactions/payment-tokens/${encodeURIComponent(paymentTokenId)}`,
      {
        method: 'POST',
        headers: { Authorization: `Bearer ${accessToken}`, 'Content-Type': 'application/json', Accept: PROVIDER_ACCEPT },
        body: JSON.stringify({
          clientAccnum: this.settings.clientAccnum,
          clientSubacc: this.settings.clientSubacc,
          ...terms,
          initialPrice: Number(terms.initialPrice),
          recurringPrice: Number(terms.recurringPrice),
          lifeTimeSubscription: false,
          createNewPaymentToken: false,
        }),
      },
      this.settings.chargeTimeoutMs,
    );
    if (res.kind === 'timedOut') return { kind: 'unknown', reason: 'the card processor did not answer in time' };
    if (res.kind === 'network') return { kind: 'unknown', reason: 'the card processor could not be reached' };
    if (res.status >= 500) return { kind: 'unknown', reason: `the card processor answered ${res.status}` };
    if (res.status !== 200) return { kind: 'rejected', status: res.status, ...providerErrorOf(res.body) };
    const body = (res.body ?? {}) as { approved?: unknown; subscriptionId?: unknown; declineCode?: unknown; declineText?: unknown };
    if (body.approved === true) {
      // Kept as a string: 18-digit ids exceed JavaScript's exact integers.
      const sub = body.subscriptionId;
      return { kind: 'approved', subscriptionId: typeof sub === 'string' || typeof sub === 'number' ? String(sub) : null };
    }
    if (body.approved === false) {
      return {
        kind: 'declined',
        declineCode: body.declineCode === null || body.declineCode === undefined ? '' : String(body.declineCode),
        declineText: typeof body.declineText === 'string' ? body.declineText.slice(0, 200) : 'declined',
      };
    }
    return { kind: 'unknown', reason: 'the card processor gave an answer we could not read' };
  }
}
