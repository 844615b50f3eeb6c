import { Agent, request } from 'node:http';

export interface Req {
  path: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface Sample {
  /** ms since the run started */
  at: number;
  path: string;
  status: number;
  ms: number;
  /** Set when no HTTP answer came (reset, refused, timeout). */
  error?: string;
  body?: string;
}

/** One request; never rejects. Bodies are kept only when asked (they cost memory under load). */
export function send(
  base: string,
  req: Req,
  options: { agent?: Agent; timeoutMs?: number; keepBody?: boolean; t0?: number } = {},
): Promise<Sample> {
  const url = new URL(req.path, base);
  const t0 = options.t0 ?? 0;
  const started = performance.now();
  return new Promise((resolve) => {
    const done = (status: number, error?: string, body?: string) =>
      resolve({ at: started - t0, path: req.path, status, ms: performance.now() - started, error, body });
    const r = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method: req.method ?? 'GET',
        headers: req.headers,
        agent: options.agent,
        timeout: options.timeoutMs ?? 10_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => {
          if (options.keepBody) chunks.push(c);
        });
        res.on('end', () => done(res.statusCode ?? 0, undefined, options.keepBody ? Buffer.concat(chunks).toString() : undefined));
        res.on('error', (err) => done(res.statusCode ?? 0, `response: ${err.message}`));
      },
    );
    r.on('timeout', () => r.destroy(new Error('timeout')));
    r.on('error', (err: NodeJS.ErrnoException) => done(0, err.code ?? err.message));
    r.end(req.body);
  });
}

export interface Traffic {
  samples: Sample[];
  /** Stops the loops and waits for the requests in flight. */
  stop(): Promise<Sample[]>;
}

/**
 * `connections` loops, each sending its next request when the previous one answered, until
 * stop() or maxMs (every run is bounded in time).
 */
export function startTraffic(
  base: string,
  next: (n: number) => Req,
  options: { connections: number; maxMs: number; timeoutMs?: number },
): Traffic {
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections });
  const samples: Sample[] = [];
  const t0 = performance.now();
  let stopped = false;
  let n = 0;
  const loop = async () => {
    while (!stopped && performance.now() - t0 < options.maxMs) {
      samples.push(await send(base, next(n++), { agent, timeoutMs: options.timeoutMs, t0 }));
    }
  };
  const loops = Promise.all(Array.from({ length: options.connections }, loop));
  return {
    samples,
    async stop() {
      stopped = true;
      await loops;
      agent.destroy();
      return samples;
    },
  };
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

export interface Summary {
  requests: number;
  errors: number;
  s5xx: number;
  p50: number;
  p99: number;
  max: number;
}

export function summarize(samples: Sample[]): Summary {
  const ms = samples.map((s) => s.ms);
  return {
    requests: samples.length,
    errors: samples.filter((s) => s.error).length,
    s5xx: samples.filter((s) => s.status >= 500).length,
    p50: round(percentile(ms, 50)),
    p99: round(percentile(ms, 99)),
    max: round(maxOf(ms)),
  };
}

/** Math.max(...xs) overflows the call stack past ~100k arguments; a long load run has more samples. */
export const maxOf = (xs: readonly number[]): number => xs.reduce((a, b) => (b > a ? b : a), 0);

export const round = (n: number, digits = 1): number => Math.round(n * 10 ** digits) / 10 ** digits;

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Polls until check() holds; returns the ms it took, or throws after timeoutMs. */
export async function waitUntil(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000, everyMs = 50): Promise<number> {
  const started = performance.now();
  while (!(await check())) {
    if (performance.now() - started > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
  return performance.now() - started;
}
