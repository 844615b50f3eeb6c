import type { Knex } from 'knex';
import type { PlayableType } from '@media-site/contracts/playback-layout';
import { bumpGeneration } from '../generation';

const TABLE: Record<PlayableType, 'videos' | 'vods'> = { video: 'videos', vod: 'vods' };

/**
 * Stores an item's running time in whole seconds (what listing cards show) when it differs from the
 * stored one, and then moves the catalog generation in the same transaction, so cached listings
 * show it. Ingest writes ffprobe's reading of the original; the encoder calls this with its
 * renditions' length, which usually rounds to the same second and so changes nothing.
 */
export async function recordDuration(knex: Knex, type: PlayableType, path: string, seconds: number): Promise<boolean> {
  const duration = Math.round(seconds);
  if (!Number.isFinite(duration) || duration <= 0) return false;
  return knex.transaction(async (trx) => {
    const changed = await trx(TABLE[type])
      .where({ path })
      .andWhere((q) => q.whereNull('duration').orWhereNot('duration', duration))
      .update({ duration });
    if (changed > 0) await bumpGeneration(trx);
    return changed > 0;
  });
}
