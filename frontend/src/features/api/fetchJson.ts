export class HttpError extends Error {
  readonly status: number;

  constructor(status: number) {
    super(`HTTP error! status: ${status}`);
    this.name = 'HttpError';
    this.status = status;
  }
}

export async function fetchJson<T>(url: string, init?: RequestInit): Promise<T> {
  const response = await fetch(url, { ...init, headers: { Accept: 'application/json', ...init?.headers } });
  if (!response.ok) throw new HttpError(response.status);
  return (await response.json()) as T;
}

export function postJson<T>(url: string, body?: unknown, init?: RequestInit): Promise<T> {
  return fetchJson<T>(url, {
    ...init,
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...init?.headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}
