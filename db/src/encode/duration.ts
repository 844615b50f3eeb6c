import type { Knex } from 'knex';
import type { PlayableType } from '@media-site/contracts/playback-layout';
import { bumpGeneration } from '../generation';

const TABLE: Record<PlayableType, 'videos' | 'vods'> = { video: 'videos', vod: 'vods' };

/**
 * What a finished encode changes in the catalog's answers, in one transaction: the item's running
 * time in whole seconds (listing cards) when none is stored or the stored one is more than a second
 * off, and, on an item's first outputs, its hover preview (the listings send the thumbnails track
 * of encoded items only). Either moves the catalog generation, so every cache tier shows it.
 * Ingest writes ffprobe's reading of the original; the renditions' length may round the other way:
 * a second's slack keeps the two from undoing each other (and moving the generation) each time.
 */
export async function recordEncoded(
  knex: Knex,
  type: PlayableType,
  path: string,
  seconds: number,
  { firstOutputs = false }: { firstOutputs?: boolean } = {},
): Promise<boolean> {
  const duration = Math.round(seconds);
  return knex.transaction(async (trx) => {
    const changed =
      Number.isFinite(duration) && duration > 0
        ? await trx(TABLE[type])
            .where({ path })
            .andWhere((q) =>
              q
                .whereNull('duration')
                .orWhere('duration', '<', duration - 1)
                .orWhere('duration', '>', duration + 1),
            )
            .update({ duration })
        : 0;
    const moved = changed > 0 || firstOutputs;
    if (moved) await bumpGeneration(trx);
    return moved;
  });
}
