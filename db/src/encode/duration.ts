import type { Knex } from 'knex';
import type { PlayableType } from '@media-site/contracts/playback-layout';
import { bumpGeneration } from '../generation';

const TABLE: Record<PlayableType, 'videos' | 'vods'> = { video: 'videos', vod: 'vods' };

/**
 * Stores an item's running time in whole seconds (what listing cards show) when none is stored or
 * the stored one is more than a second off, and then moves the catalog generation in the same
 * transaction, so cached listings show it. Ingest writes ffprobe's reading of the original; the
 * encoder calls this with its renditions' length, which may round the other way: a second's slack
 * keeps the two from undoing each other (and moving the generation) on every ingest and encode.
 */
export async function recordDuration(knex: Knex, type: PlayableType, path: string, seconds: number): Promise<boolean> {
  const duration = Math.round(seconds);
  if (!Number.isFinite(duration) || duration <= 0) return false;
  return knex.transaction(async (trx) => {
    const changed = await trx(TABLE[type])
      .where({ path })
      .andWhere((q) =>
        q
          .whereNull('duration')
          .orWhere('duration', '<', duration - 1)
          .orWhere('duration', '>', duration + 1),
      )
      .update({ duration });
    if (changed > 0) await bumpGeneration(trx);
    return changed > 0;
  });
}
