import { execFile } from 'node:child_process';

/**
 * The purge hook's delivery, one attempt: PURGE_WEBHOOK_URL gets a POST `{ "event", "prefixes",
 * "urls" }`, PURGE_COMMAND runs with the URLs as arguments (PURGE_EVENT=takedown|restore in its
 * environment). Two callers retry it their own way: each media service as soon as its takedown
 * list changed (media-service/src/access/purge.ts), and the bff's durable purge outbox once the
 * front door's caches have let go (bff/src/purge/worker.ts).
 */
export interface PurgeEvent {
  event: 'takedown' | 'restore';
  /** Media folders as the takedown list names them: `video/some-folder/`. */
  prefixes: string[];
  /** Site paths a cache holds for them: the member path and the edge (CDN) path, both prefixes. */
  urls: string[];
}

export interface PurgeTargets {
  webhookUrl: string | undefined;
  command: string | undefined;
}

export function purgeEventOf(event: PurgeEvent['event'], prefixes: string[]): PurgeEvent {
  const urls = prefixes.flatMap((p) => {
    const encoded = p.split('/').map(encodeURIComponent).join('/');
    return [`/members/${encoded}`, `/edge/members/${encoded}`];
  });
  return { event, prefixes, urls };
}

export async function callPurgeWebhook(url: string, body: PurgeEvent): Promise<void> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  await res.arrayBuffer().catch(() => undefined);
  if (!res.ok) throw new Error(`purge webhook answered ${res.status}`);
}

export function runPurgeCommand(command: string, body: PurgeEvent): Promise<void> {
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

/** The configured targets, each as a name and one attempt. */
export function purgeCalls(targets: PurgeTargets, event: PurgeEvent): [string, () => Promise<void>][] {
  const calls: [string, () => Promise<void>][] = [];
  if (targets.webhookUrl) calls.push(['webhook', () => callPurgeWebhook(targets.webhookUrl!, event)]);
  if (targets.command) calls.push(['command', () => runPurgeCommand(targets.command!, event)]);
  return calls;
}
