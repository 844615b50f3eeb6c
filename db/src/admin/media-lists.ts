import type { Knex } from 'knex';

// The console dashboard's "media services' lists" (migration 019): when each media service last
// fetched its revocation and takedown lists from a bff, and how old it lets them get.

export type MediaListName = 'revocations' | 'takedowns';

/** What a media service may call itself: host:port, letters, digits, `.`, `_`, `-`, `:`. */
export const MEDIA_INSTANCE = /^[\w.:-]{1,120}$/;
/** A poll is written at most this often per instance and list, per bff process (the lists are polled every few seconds). */
export const LIST_POLL_WRITE_EVERY_MS = 10_000;
/** Rows of instances not heard from for this long are dropped (a replica scaled away). */
export const LIST_POLL_KEEP_MS = 7 * 24 * 3_600_000;

export interface MediaListPoll {
  instance: string;
  list: MediaListName;
  fetchedAt: number;
  /** Seconds since then, at the dashboard's `now`. */
  ageSeconds: number;
  /** The media service's own bound (3 missed polls + 30 s); null if it did not say. */
  maxAgeSeconds: number | null;
  /** Older than its bound: that media service is not getting new takedowns or revocations. */
  late: boolean;
}

/**
 * Records that `instance` fetched `list` at `now`, at most once per LIST_POLL_WRITE_EVERY_MS per
 * process (`written` is the caller's memory of its last writes). Bad names are ignored, not stored.
 */
export async function recordListPoll(
  db: Knex,
  written: Map<string, number>,
  poll: { instance: string; list: MediaListName; maxAgeSeconds: number | null; now: number },
): Promise<void> {
  if (!MEDIA_INSTANCE.test(poll.instance)) return;
  const key = `${poll.instance}\n${poll.list}`;
  const last = written.get(key);
  if (last !== undefined && poll.now - last < LIST_POLL_WRITE_EVERY_MS) return;
  // Bounded: one entry per instance and list, and only names that passed the pattern.
  if (written.size > 1000) written.clear();
  written.set(key, poll.now);
  const maxAge =
    poll.maxAgeSeconds !== null && Number.isInteger(poll.maxAgeSeconds) && poll.maxAgeSeconds > 0 && poll.maxAgeSeconds < 86_400
      ? poll.maxAgeSeconds
      : null;
  await db('media_list_polls')
    .insert({ instance: poll.instance, list: poll.list, fetched_at: poll.now, max_age_s: maxAge })
    .onConflict(['instance', 'list'])
    .merge(['fetched_at', 'max_age_s']);
  await db('media_list_polls')
    .where('fetched_at', '<', poll.now - LIST_POLL_KEEP_MS)
    .delete();
}

/** Every instance's lists, the stalest first. */
export async function mediaListPolls(db: Knex, now: number): Promise<MediaListPoll[]> {
  const rows: Array<{ instance: string; list: string; fetched_at: unknown; max_age_s: unknown }> = await db('media_list_polls')
    .orderBy('fetched_at', 'asc')
    .orderBy('instance', 'asc')
    .orderBy('list', 'asc')
    .limit(100)
    .select('instance', 'list', 'fetched_at', 'max_age_s');
  return rows.map((r) => {
    const fetchedAt = Number(r.fetched_at);
    const ageSeconds = Math.max(0, Math.floor((now - fetchedAt) / 1000));
    const maxAgeSeconds = r.max_age_s === null || r.max_age_s === undefined ? null : Number(r.max_age_s);
    return {
      instance: String(r.instance),
      list: String(r.list) as MediaListName,
      fetchedAt,
      ageSeconds,
      maxAgeSeconds,
      late: maxAgeSeconds !== null && ageSeconds > maxAgeSeconds,
    };
  });
}
