import { isoTime } from '@media-site/contracts/iso-time';
import { ReportRuleError, schedule, scheduledItems, tease } from '@media-site/db/reports';
import { announce, contentRef } from './content-change';
import { cliActor, type Command } from './types';

// An ISO 8601 date and time with an explicit offset: a release time must not depend on the shell's TZ.
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2})$/;
// Far enough for any calendar; keeps the value well inside a BIGINT and a Date.
const LATEST = Date.UTC(2100, 0, 1);

/** Unix ms of `text`, or a bad_input error (exit 2) that says what is accepted. */
export function parseReleaseTime(text: string): number {
  const value = text.trim();
  const ms = value.length <= 40 && ISO_TIME.test(value) ? Date.parse(value) : NaN;
  if (!Number.isFinite(ms))
    throw new ReportRuleError(
      'bad_input',
      `"${text}" is not an ISO 8601 time with a time zone (e.g. 2026-12-01T18:00:00Z or 2026-12-01T19:00+01:00)`,
    );
  if (ms >= LATEST) throw new ReportRuleError('bad_input', `release time ${value} is after ${isoTime(LATEST, '', 's')}`);
  return ms;
}

/** Scheduled releases (issue 24): `catalog schedule`, `catalog unschedule`, `catalog scheduled`. */
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
