import { publishGeneration } from '@media-site/db';
import { type ContentRef, contentRefOf, ContentRuleError } from '@media-site/db/content';
import type { CommandContext } from './types';

// What the commands that change one item (takedown, restore, schedule, unschedule) share.

/** The item a site path or URL names, or a bad_input error (exit 2) saying what is accepted. */
export function contentRef(arg: string): ContentRef {
  const ref = contentRefOf(arg);
  if (!ref)
    throw new ContentRuleError(
      'bad_input',
      `"${arg}" does not name a photo set, free photo set, video or VOD (use /photos/<path>, /freephotos/<path>, /video/<path> or /vod/<path>)`,
    );
  return ref;
}

/** Announces a bumped catalog generation to running bff instances (they poll the database otherwise). */
export async function announce(ctx: CommandContext, generation: number): Promise<void> {
  const { redisUrl, redisHa, cacheKeyPrefix } = ctx.config;
  // Without Redis, running bff instances see the new generation at their next poll (seconds).
  if (redisUrl)
    await publishGeneration(redisUrl, cacheKeyPrefix, generation, redisHa).catch((err: unknown) =>
      ctx.io.err(`warning: could not announce the change on Redis (${String(err)}); bff instances will see it at their next poll`),
    );
}
