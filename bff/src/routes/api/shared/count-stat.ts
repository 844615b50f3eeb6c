import { countStat, statDay, type StatCounter, type StatItemType } from '@media-site/db/stats';
import type { AccountDeps } from '../../../account/deps';

/**
 * Counts one event into the console's Stats (db/src/stats/daily.ts) for a member's request that
 * has done its real work (a link minted, an item saved, a play reported). Best effort: a failed
 * count is logged and one count less, never the member's error. `once`: the member's id, so the
 * event counts once per member, item and day (a rate-limiter key that lapses after 24 hours).
 */
export async function countActivity(
  deps: AccountDeps,
  item: { type: StatItemType; id: number },
  counter: StatCounter,
  once?: { memberId: number },
): Promise<void> {
  const now = deps.now();
  try {
    if (once && !(await deps.limiter.hit(`activity-once:${counter}:${once.memberId}:${item.type}:${item.id}:${statDay(now)}`, 1, 86_400)))
      return;
    await countStat(deps.knex, item, counter, now);
  } catch (err) {
    deps.logger.warn({ err, item, counter }, 'stats: an event was not counted');
  }
}
