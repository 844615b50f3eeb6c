import { writeFile } from 'node:fs/promises';
import { resolve as resolvePath } from 'node:path';
import { cliActor, type Command, type CommandContext } from './types';
import { recordRead } from '@media-site/db/admin';
import { mailSiteFromEnv } from '@media-site/db/mail';
import { activeTakedowns, restore, takeDown, takedownLog } from '@media-site/db/content';
import {
  acknowledge,
  appeal,
  CLI_FLAGS,
  decide,
  deadlinesOf,
  type HolidayList,
  openReports,
  overdue,
  parseHolidays,
  queueOrder,
  reportByReference,
  type ReportRow,
  ReportRuleError,
  reportText,
  resolve,
} from '@media-site/db/moderation';
import { announce, contentRef } from './content-change';
import { monthlyExport } from './reports-export';
import { ACTOR_MAX, APPEAL_DECISIONS, NOTE_MAX, OUTCOMES } from '@media-site/contracts/report-vocabulary';
import { isoTime } from '@media-site/contracts/iso-time';

// `reports ack|resolve|appeal|decide` go through db/src/moderation/handling.ts, the console's service
// too: the same checks, mail and audit row (actor `cli:<user>`) in one transaction.

const iso = (ms: number | null) => isoTime(ms, '-', 's');
const now = (ctx: CommandContext) => (ctx.io.now ?? Date.now)();
const holidaysOf = (ctx: CommandContext): HolidayList => parseHolidays(ctx.io.env.REPORT_HOLIDAYS);

const text = (flags: Record<string, unknown>, name: string, max: number): string => reportText(flags[name], `--${name}`, max);

function view(r: ReportRow, at: number, holidays: HolidayList) {
  const d = deadlinesOf(r, holidays);
  return {
    reference: r.reference,
    received: iso(r.created_at),
    content: r.content_url,
    reason: r.reason,
    acknowledgeBy: iso(d.acknowledgeBy),
    acknowledged: iso(r.acknowledged_at),
    resolveBy: iso(d.resolveBy),
    resolved: iso(r.resolved_at),
    outcome: r.outcome,
    appealDecideBy: iso(d.appealDecideBy),
    appealed: iso(r.appealed_at),
    appealDecision: r.appeal_decision,
    overdue: overdue(r, at, holidays),
  };
}

function formatDetail(r: ReportRow, at: number, holidays: HolidayList): string {
  const v = view(r, at, holidays);
  const lines = [
    `${v.reference}  ${v.reason}  ${v.content}`,
    `  received      ${v.received}${r.reporter_email ? `  from ${r.reporter_email}` : ''}`,
    `  acknowledge   by ${v.acknowledgeBy}  done ${v.acknowledged}${r.acknowledged_by ? ` (${r.acknowledged_by})` : ''}`,
    `  resolve       by ${v.resolveBy}  done ${v.resolved}${r.outcome ? `  outcome ${r.outcome} (${r.resolved_by})` : ''}`,
  ];
  if (r.appealed_at !== null) {
    lines.push(
      `  appeal        by ${v.appealDecideBy}  received ${v.appealed}${r.appeal_decision ? `  decision ${r.appeal_decision} (${r.appeal_decided_by})` : ''}`,
    );
  }
  if (v.overdue.length) lines.push(`  OVERDUE: ${v.overdue.join(', ')}`);
  lines.push(`  details: ${r.details}`);
  if (r.resolution_note) lines.push(`  resolution note: ${r.resolution_note}`);
  if (r.appeal_text) lines.push(`  appeal: ${r.appeal_text}`);
  if (r.appeal_note) lines.push(`  appeal note: ${r.appeal_note}`);
  return lines.join('\n');
}

async function mustFind(ctx: CommandContext, reference: string): Promise<ReportRow> {
  const r = await reportByReference(ctx.knex, reference);
  if (!r) throw new ReportRuleError('not_found', `no report ${reference}`);
  return r;
}

async function reportsCommand([sub, reference]: string[], flags: Record<string, unknown>, ctx: CommandContext): Promise<number> {
  const at = now(ctx);
  const holidays = holidaysOf(ctx);
  const site = mailSiteFromEnv(ctx.io.env);
  // `list` and `show` print reporters' and appellants' addresses: reads recorded before printing.
  // The export names no one (reporter_contact is yes/no) and is not recorded.
  const reader = () => ({ actor: cliActor(ctx), now: at });
  const handler = () => ({ by: text(flags, 'by', ACTOR_MAX), now: at, audit: { actor: cliActor(ctx) } });
  const needRef = () => {
    if (!reference) throw new ReportRuleError('bad_input', `reports ${sub} needs a report reference`);
    return reference;
  };
  let changed: ReportRow;
  switch (sub) {
    case 'list': {
      const queue = queueOrder(await openReports(ctx.knex), at, holidays);
      await recordRead(ctx.knex, reader(), 'report.list', '', { shown: queue.length });
      if (flags.json)
        ctx.io.out(
          JSON.stringify(
            queue.map((r) => view(r, at, holidays)),
            null,
            2,
          ),
        );
      else if (queue.length === 0) ctx.io.out('no open reports');
      else for (const r of queue) ctx.io.out(formatDetail(r, at, holidays));
      return 0;
    }
    case 'show': {
      const r = await mustFind(ctx, needRef());
      await recordRead(ctx.knex, reader(), 'report.view', r.reference);
      ctx.io.out(flags.json ? JSON.stringify({ ...r, deadlines: view(r, at, holidays) }, null, 2) : formatDetail(r, at, holidays));
      return 0;
    }
    case 'export': {
      const csv = await monthlyExport(ctx.knex, String(flags.month ?? ''), at, holidays).catch((err: unknown) => {
        throw err instanceof RangeError ? new ReportRuleError('bad_input', `--month: ${err.message}`) : err;
      });
      if (typeof flags.out === 'string') await writeFile(resolvePath(ctx.io.env.INIT_CWD ?? process.cwd(), flags.out), csv);
      else ctx.io.out(csv.trimEnd());
      return 0;
    }
    case 'ack':
      changed = await acknowledge(ctx.knex, needRef(), handler());
      break;
    // Each decision and its mail commit together: no outcome without its mail, no mail for an outcome rolled back.
    case 'resolve':
      changed = await resolve(ctx.knex, needRef(), { ...handler(), outcome: flags.outcome, note: flags.note, site, names: CLI_FLAGS });
      break;
    case 'appeal':
      changed = await appeal(ctx.knex, needRef(), {
        text: flags.text,
        email: flags.email,
        site,
        holidays,
        now: at,
        audit: { actor: cliActor(ctx) },
        names: CLI_FLAGS,
      });
      break;
    case 'decide':
      changed = await decide(ctx.knex, needRef(), { ...handler(), decision: flags.decision, note: flags.note, site, names: CLI_FLAGS });
      break;
    default:
      throw new ReportRuleError('bad_input', `unknown reports subcommand: ${String(sub)}`);
  }
  ctx.io.out(formatDetail(changed, at, holidays));
  return 0;
}

function takedownCommand(action: 'takedown' | 'restore'): Command['run'] {
  return async ([target], flags, ctx) => {
    const ref = contentRef(target ?? '');
    const reportReference = typeof flags.report === 'string' ? (await mustFind(ctx, flags.report)).reference : undefined;
    const change = {
      ref,
      actor: text(flags, 'by', ACTOR_MAX),
      reason: text(flags, 'reason', NOTE_MAX),
      reportReference,
      now: now(ctx),
      audit: { actor: cliActor(ctx) },
    };
    const generation = await (action === 'takedown' ? takeDown : restore)(ctx.knex, change);
    await announce(ctx, generation);
    ctx.io.out(`${action === 'takedown' ? 'taken down' : 'restored'}: ${ref.type} ${ref.path} (catalog generation ${generation})`);
    return 0;
  };
}

const byReason = { by: { type: 'string' }, reason: { type: 'string' }, report: { type: 'string' } } as const;

export const reportCommands: Record<string, Command> = {
  reports: {
    usage: `reports list|show|ack|resolve|appeal|decide|export [<reference>] [options]
    Content reports (docs/compliance.md). Deadlines: acknowledge 48 h, resolve 7 business days,
    appeal 14 business days (UTC; weekends and REPORT_HOLIDAYS=YYYY-MM-DD,... skipped).
    resolve, appeal and decide queue a mail to the reporter or appellant who gave an address
    (sent by the bff's mail worker; its links start with SITE_URL).
    list [--json]                                  open reports, overdue first
    show <ref> [--json]
    ack <ref> --by <name>
    resolve <ref> --outcome ${OUTCOMES.join('|')} --note <text> --by <name>
    appeal <ref> --text <text> [--email <address>]  record an appeal received another way
    decide <ref> --decision ${APPEAL_DECISIONS.join('|')} --note <text> --by <name>
    export --month YYYY-MM [--out <file>]          CSV of the reports received that month`,
    options: {
      json: { type: 'boolean' },
      by: { type: 'string' },
      outcome: { type: 'string' },
      note: { type: 'string' },
      text: { type: 'string' },
      email: { type: 'string' },
      decision: { type: 'string' },
      month: { type: 'string' },
      out: { type: 'string' },
    },
    minPositionals: 1,
    positionals: 2,
    run: reportsCommand,
  },
  takedown: {
    usage: `takedown <site path or URL> --by <name> --reason <text> [--report <ref>]
    Hides a photo set (/photos/<path>), free photo set (/freephotos/<path>), video (/video/<path>) or
    VOD (/vod/<path>) from every listing, search and model page at once and makes its media answer
    410. Logged with who, when and why.`,
    options: byReason,
    positionals: 1,
    run: takedownCommand('takedown'),
  },
  restore: {
    usage: `restore <site path or URL> --by <name> --reason <text> [--report <ref>]
    Brings a taken-down item back. Logged like takedown.`,
    options: byReason,
    positionals: 1,
    run: takedownCommand('restore'),
  },
  takedowns: {
    usage: `takedowns [--log] [--json]
    Items taken down now; --log prints every takedown and restore instead.`,
    options: { log: { type: 'boolean' }, json: { type: 'boolean' } },
    positionals: 0,
    async run(_positionals, flags, { knex, io }) {
      const rows = flags.log ? await takedownLog(knex) : await activeTakedowns(knex);
      if (flags.json) io.out(JSON.stringify(rows, null, 2));
      else if (rows.length === 0) io.out(flags.log ? 'no takedowns logged' : 'nothing is taken down');
      else
        for (const r of rows) {
          io.out(
            'action' in r
              ? `${iso(r.at)}  ${r.action.padEnd(8)} ${r.content_type} ${r.path}  by ${r.actor}${r.report_reference ? ` (${r.report_reference})` : ''}: ${r.reason}`
              : `${iso(r.taken_down_at)}  ${r.content_type} ${r.path}`,
          );
        }
      return 0;
    },
  },
};
