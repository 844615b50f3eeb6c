import { dashboard, dashboardDays, type Dashboard } from '@media-site/db/admin';
import { parseHolidays } from '@media-site/db/moderation';
import { isoTime } from '@media-site/contracts/iso-time';
import type { Command, CommandContext } from './types';

// The console's dashboard for the terminal: the same db service, every section (the
// shell's operator is the owner), as text or --json.

const money = (cents: number) => (cents / 100).toFixed(2);

function text(d: Dashboard): string {
  const lines = [`dashboard: the ${d.days.length} UTC day(s) ${d.days[0]} to ${d.days.at(-1)}, read ${isoTime(d.now, '-', 's')}`];
  const members = d.members ?? [];
  const total = (key: 'new' | 'cancelled' | 'chargedBack') => members.reduce((n, m) => n + m[key], 0);
  lines.push(
    `members: ${members.at(-1)?.active ?? 0} active now; in these days ${total('new')} new, ${total('cancelled')} cancelled, ${total('chargedBack')} charged back`,
  );
  for (const r of d.revenue ?? [])
    lines.push(
      `revenue (currency ${r.currencyCode}): membership sign-ups ${money(r.totalMembership)}, renewals ${money(r.totalRenewals)}, VODs ${money(r.totalVod)}`,
    );
  if (d.revenue?.length === 0) lines.push('revenue: no payments in these days');
  if (d.encode)
    lines.push(
      `encode queue: ${d.encode.queued} waiting (${d.encode.retrying} to retry), ${d.encode.running} running, ${d.encode.failed} failed`,
    );
  if (d.reports) lines.push(`reports: ${d.reports.open} open, ${d.reports.dueToday} due today, ${d.reports.overdue} overdue`);
  if (d.purge) {
    const o = d.purge.oldest;
    lines.push(
      `purges: ${d.purge.pending} pending${o ? `; oldest: ${o.event} queued ${isoTime(o.createdAt, '-', 's')}, tried ${o.attempts} time(s)${o.lastError ? `, last error: ${o.lastError}` : ''}` : ''}`,
    );
  }
  if (d.backup) {
    const { lastOk, lastFailed, late } = d.backup;
    lines.push(
      `backups: ${lastOk ? `last good set ${lastOk.setId}, finished ${isoTime(lastOk.finishedAt, '-', 's')}` : 'none yet'}${late ? '  LATE (none in the last day)' : ''}${lastFailed ? `; failed since at ${isoTime(lastFailed.finishedAt, '-', 's')}: ${lastFailed.error}` : ''}`,
    );
  }
  const errors = d.errors ?? [];
  lines.push(errors.length === 0 ? 'recorded errors: none' : `recorded errors (newest first):`);
  for (const e of errors) lines.push(`  ${isoTime(e.at, '-', 's')}  ${e.source.padEnd(6)}  ${e.subject}: ${e.text}`);
  const polls = d.mediaLists ?? [];
  lines.push(
    polls.length === 0 ? "media services' lists: no media service has fetched a list yet" : "media services' lists (stalest first):",
  );
  for (const p of polls)
    lines.push(
      `  ${p.instance}  ${p.list.padEnd(11)}  fetched ${p.ageSeconds} s ago${p.maxAgeSeconds === null ? '' : ` (bound ${p.maxAgeSeconds} s)`}${p.late ? '  LATE' : ''}`,
    );
  return lines.join('\n');
}

async function dashboardCommand(_positionals: string[], flags: Record<string, unknown>, ctx: CommandContext): Promise<number> {
  const days = dashboardDays(flags.days as string | undefined);
  const d = await dashboard(ctx.knex, {
    days,
    now: (ctx.io.now ?? Date.now)(),
    sections: { members: true, payments: true, encode: true, reports: true, operations: true },
    holidays: parseHolidays(ctx.io.env.REPORT_HOLIDAYS),
  });
  ctx.io.out(flags.json ? JSON.stringify(d, null, 2) : text(d));
  return 0;
}

export const dashboardCommands: Record<string, Command> = {
  dashboard: {
    usage: `dashboard [--days N] [--json]
    The console's dashboard (docs/operate.md, "The console's dashboard"): members, revenue, the
    encode queue, reports due, the oldest pending purge and recorded errors over the last N UTC days
    (1 to 90, default 30).`,
    options: { days: { type: 'string' }, json: { type: 'boolean' } },
    positionals: 0,
    run: dashboardCommand,
  },
};
