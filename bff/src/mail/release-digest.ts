import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { pruneReleaseMail, queueReleaseDigests, type MailSite, type ReleaseMailLinks } from '@media-site/db/mail';

/** A run at least this often besides the catalog's changes (a missed change, a restart, a member's next page of a big run). */
const EVERY_MS = 60_000;
/** Changes this close together are one run (an ingest of many folders bumps the generation once per folder). */
const SETTLE_MS = 1000;
/** What the digest remembers is kept 30 days and its links a year: forgetting it once an hour is plenty. */
const PRUNE_EVERY_MS = 3_600_000;

/** Where a release mail's unsubscribe link goes: the page with the button, and the RFC 8058 POST address. */
export function releaseMailLinks(site: MailSite): ReleaseMailLinks {
  return {
    page: (token) => `/unsubscribe#token=${token}`,
    oneClick: (token) => `${site.url}/api/mail/unsubscribe?token=${token}`,
  };
}

export interface ReleaseDigest {
  /** Run soon (the catalog changed: maybe a release). */
  nudge(): void;
  stop(): Promise<void>;
}

/**
 * The release digest (db/src/mail/release-digest.ts) in the bff that sends mail: a run when the
 * catalog generation changes (an item released by the release timer, ingested, restored) and every
 * minute; one run at a time. What it queues the mail worker sends (`onQueued` nudges it).
 */
export function startReleaseDigest(options: {
  knex: Knex;
  site: MailSite;
  logger: Logger;
  onQueued?: () => void;
  now?: () => number;
}): ReleaseDigest {
  const { knex, site, logger } = options;
  const now = options.now ?? Date.now;
  const links = releaseMailLinks(site);
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  let soon: NodeJS.Timeout | undefined;
  let prunedAt = -Infinity;
  const run = (): void => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      try {
        const queued = await queueReleaseDigests(knex, site, links, now());
        if (queued > 0) {
          logger.info({ mails: queued }, 'release mails queued');
          options.onQueued?.();
        }
        if (now() - prunedAt >= PRUNE_EVERY_MS) {
          await pruneReleaseMail(knex, now());
          prunedAt = now();
        }
      } catch (err) {
        logger.warn({ err }, 'release digest run failed; the next one tries again');
      }
    })().finally(() => {
      running = undefined;
      if (again) {
        again = false;
        run();
      }
    });
  };
  const every = setInterval(run, EVERY_MS);
  every.unref();
  run();
  return {
    nudge() {
      clearTimeout(soon);
      soon = setTimeout(run, SETTLE_MS);
      soon.unref();
    },
    async stop() {
      stopped = true;
      clearInterval(every);
      clearTimeout(soon);
      await running;
    },
  };
}
