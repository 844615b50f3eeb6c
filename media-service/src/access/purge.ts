import { execFile } from 'node:child_process';
import type { Logger } from 'pino';

/**
 * Tells an external cache (a CDN in front of the front door) that a takedown or a restore took
 * effect here: PURGE_WEBHOOK_URL gets a POST `{ "event", "prefixes", "urls" }`, PURGE_COMMAND runs
 * with the URLs as arguments (PURGE_EVENT=takedown|restore in its environment). Called after the
 * service's own list changed, so a cache that refetches at once already gets the 410 (or the file).
 * Each attempt is retried after 1, 2, 4, ... s (PURGE_ATTEMPTS in all); every outcome is one log line.
 * Every media replica calls it for the change it sees: purges are idempotent, so N replicas make N
 * calls for one takedown.
 */
export interface PurgeConfig {
  webhookUrl: string | undefined;
  command: string | undefined;
  attempts: number;
  /** First retry delay; doubles each time. */
  retryMs?: number;
}

export interface PurgeEvent {
  event: 'takedown' | 'restore';
  /** Media folders as the takedown list names them: `video/some-folder/`. */
  prefixes: string[];
  /** Site paths a cache holds for them: the member path and the edge (CDN) path, both prefixes. */
  urls: string[];
}

export function purgeEventOf(event: PurgeEvent['event'], prefixes: string[]): PurgeEvent {
  const urls = prefixes.flatMap((p) => {
    const encoded = p.split('/').map(encodeURIComponent).join('/');
    return [`/members/${encoded}`, `/edge/members/${encoded}`];
  });
  return { event, prefixes, urls };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms).unref());

async function callWebhook(url: string, body: PurgeEvent): Promise<void> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  await res.arrayBuffer().catch(() => undefined);
  if (!res.ok) throw new Error(`purge webhook answered ${res.status}`);
}

function runCommand(command: string, body: PurgeEvent): Promise<void> {
  return new Promise((resolve, reject) => {
    // Run through the shell so an operator can write `curl ... "$@"`-style lines; the URLs are
    // arguments ($1, $2, ...), never spliced into the command text.
    execFile(
      '/bin/sh',
      ['-c', command, 'purge', ...body.urls],
      { timeout: 30_000, env: { ...process.env, PURGE_EVENT: body.event } },
      (err) => (err ? reject(err) : resolve()),
    );
  });
}

export class Purger {
  constructor(
    private readonly config: PurgeConfig,
    private readonly logger: Logger,
  ) {}

  get enabled(): boolean {
    return Boolean(this.config.webhookUrl || this.config.command);
  }

  /** Resolves when every configured target succeeded or ran out of attempts; never throws. */
  async purge(event: PurgeEvent): Promise<void> {
    const targets: [string, () => Promise<void>][] = [];
    const { webhookUrl, command } = this.config;
    if (webhookUrl) targets.push(['webhook', () => callWebhook(webhookUrl, event)]);
    if (command) targets.push(['command', () => runCommand(command, event)]);
    await Promise.all(targets.map(([target, call]) => this.withRetries(target, event, call)));
  }

  private async withRetries(target: string, event: PurgeEvent, call: () => Promise<void>): Promise<void> {
    const attempts = Math.max(1, this.config.attempts);
    let delay = this.config.retryMs ?? 1000;
    for (let attempt = 1; attempt <= attempts; attempt += 1) {
      try {
        await call();
        this.logger.info({ purge: target, event: event.event, prefixes: event.prefixes, attempt }, `purge ${target} done`);
        return;
      } catch (err) {
        const last = attempt === attempts;
        this.logger[last ? 'error' : 'warn'](
          { purge: target, event: event.event, prefixes: event.prefixes, attempt, err: (err as Error).message },
          last
            ? `purge ${target} failed after ${attempts} attempts; the external cache may still hold these URLs`
            : `purge ${target} failed; retrying`,
        );
        if (!last) {
          await sleep(delay);
          delay *= 2;
        }
      }
    }
  }
}
