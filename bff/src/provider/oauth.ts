import { providerCall } from './http';

export interface ClientCredentials {
  appId: string;
  secret: string;
}

export interface BearerToken {
  accessToken: string;
  /** Unix ms after which we fetch a new one (a margin before the provider's expiry). */
  refreshAt: number;
}

export class ProviderAuthError extends Error {}

/**
 * OAuth client-credentials bearer for one credential pair, cached until shortly before it expires;
 * concurrent callers share one request.
 */
export class BearerSource {
  private cached: BearerToken | undefined;
  private inFlight: Promise<BearerToken> | undefined;

  constructor(
    private readonly baseUrl: string,
    private readonly credentials: ClientCredentials,
    private readonly timeoutMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  async token(): Promise<BearerToken> {
    if (this.cached && this.cached.refreshAt > this.now()) return this.cached;
    this.inFlight ??= this.fetchToken().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  private async fetchToken(): Promise<BearerToken> {
    const basic = Buffer.from(`${this.credentials.appId}:${this.credentials.secret}`, 'utf8').toString('base64');
    const res = await providerCall(
      `${this.baseUrl}/ccbill-auth/oauth/token`,
      {
        method: 'POST',
        headers: { Authorization: `Basic ${basic}`, 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
        body: 'grant_type=client_credentials',
      },
      this.timeoutMs,
    );
    if (res.kind !== 'answer')
      throw new ProviderAuthError(res.kind === 'timedOut' ? 'provider OAuth timed out' : 'provider OAuth unreachable');
    const body = res.body as { access_token?: unknown; expires_in?: unknown } | null;
    if (res.status !== 200 || typeof body?.access_token !== 'string' || body.access_token === '') {
      throw new ProviderAuthError(`provider OAuth answered ${res.status}`);
    }
    // expires_in is not documented: assume 5 minutes when absent, refresh at 80% or a minute early.
    const lifetimeMs = (typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : 300) * 1000;
    const margin = Math.min(60_000, lifetimeMs * 0.2);
    this.cached = { accessToken: body.access_token, refreshAt: this.now() + lifetimeMs - margin };
    return this.cached;
  }
}
