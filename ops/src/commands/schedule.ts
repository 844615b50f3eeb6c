import { isoTime } from '@media-site/contracts/iso-time';
import { parseReleaseTime, schedule, scheduledItems, tease } from '@media-site/db/content';
import { announce, contentRef } from './content-change';
import { cliActor, type Command } from './types';

export { parseReleaseTime };

/** Scheduled releases: `catalog schedule`, `catalog unschedule`, `catalog scheduled`. */
export const scheduleCommands: Record<string, Command> = {
  schedule: {
    usage: `schedule <site path or URL> <ISO 8601 time>
    Hides a photo set, free photo set, video or VOD (/photos/<path>, /freephotos/<path>, /video/<path>,
    /vod/<path>) from every listing, search, model page, detail and its media (404) until that time
    (with a zone: 2026-12-01T18:00:00Z), then the running bff instances publish it within a second,
    with no purge. A time already past publishes it now.`,
    options: {},
    positionals: 2,
    async run([target, time], _flags, ctx) {
      const ref = contentRef(target ?? '');
      const at = parseReleaseTime(time ?? '');
      const generation = await schedule(ctx.knex, ref, at, { actor: cliActor(ctx), now: (ctx.io.now ?? Date.now)() });
      await announce(ctx, generation);
      const when = at > (ctx.io.now ?? Date.now)() ? 'scheduled for' : 'published (time already past)';
      ctx.io.out(`${when} ${isoTime(at, '', 's')}: ${ref.type} ${ref.path} (catalog generation ${generation})`);
      return 0;
    },
  },
  unschedule: {
    usage: `unschedule <site path or URL>
    Clears an item's release time: it is published at once.`,
    options: {},
    positionals: 1,
    async run([target], _flags, ctx) {
      const ref = contentRef(target ?? '');
      const generation = await schedule(ctx.knex, ref, null, { actor: cliActor(ctx), now: (ctx.io.now ?? Date.now)() });
      await announce(ctx, generation);
      ctx.io.out(`unscheduled, published now: ${ref.type} ${ref.path} (catalog generation ${generation})`);
      return 0;
    },
  },
  tease: {
    usage: `tease <site path or URL> [--off]
    Marks a photo set, video or VOD as teased: while its release time (schedule) is in the future,
    visitors see a "Coming soon" card on home with its title, model, cover thumbnail and release
    time; nothing else of it until the release. --off removes the mark.
    --off      stop teasing it`,
    options: { off: { type: 'boolean' } },
    positionals: 1,
    async run([target], flags, ctx) {
      const ref = contentRef(target ?? '');
      const now = (ctx.io.now ?? Date.now)();
      const teased = !flags.off;
      const { generation, publishAt } = await tease(ctx.knex, ref, teased, { actor: cliActor(ctx), now });
      await announce(ctx, generation);
      const shown = !teased
        ? 'no teaser'
        : publishAt !== null && publishAt > now
          ? `teaser shown until ${isoTime(publishAt, '', 's')}`
          : 'not scheduled, so no teaser shows';
      ctx.io.out(`${teased ? 'teased' : 'not teased'}: ${ref.type} ${ref.path} (${shown}; catalog generation ${generation})`);
      return 0;
    },
  },
  scheduled: {
    usage: `scheduled [--json]
    Items not released yet, soonest first.`,
    options: { json: { type: 'boolean' } },
    positionals: 0,
    async run(_positionals, flags, { knex, io }) {
      const rows = await scheduledItems(knex, (io.now ?? Date.now)());
      if (flags.json) io.out(JSON.stringify(rows, null, 2));
      else if (rows.length === 0) io.out('nothing is scheduled');
      else for (const r of rows) io.out(`${isoTime(r.publish_at, '', 's')}  ${r.content_type} ${r.path}`);
      return 0;
    },
  },
};
