/** What came back from one provider call; `timedOut`/`network` mean we do not know what happened. */
export type ProviderResponse =
  { kind: 'answer'; status: number; body: unknown } | { kind: 'timedOut' } | { kind: 'network'; message: string };

export { PROVIDER_ACCEPT } from '@media-site/contracts/provider';

export async function providerCall(url: string, init: RequestInit, timeoutMs: number): Promise<ProviderResponse> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    const name = (err as Error).name;
    if (name === 'TimeoutError' || name === 'AbortError') return { kind: 'timedOut' };
    return { kind: 'network', message: (err as Error).message };
  }
  let text: string;
  try {
    text = await res.text();
  } catch {
    // The headers came but the body did not: as unknown as a timeout.
    return { kind: 'timedOut' };
  }
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // Not JSON (a proxy's error page, a 401 with no body): the status alone decides.
  }
  return { kind: 'answer', status: res.status, body };
}

/** The provider's error body `{ errorCode, generalMessage }`; errorCode may be a number or a string. */
export function providerErrorOf(body: unknown): { errorCode: string; message: string } {
  const b = (typeof body === 'object' && body !== null ? body : {}) as { errorCode?: unknown; generalMessage?: unknown };
  return {
    errorCode: b.errorCode === undefined || b.errorCode === null ? '' : String(b.errorCode),
    message: typeof b.generalMessage === 'string' ? b.generalMessage.slice(0, 200) : '',
  };
}
