import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { cliActor, type Command, type CommandContext } from './types';
import type { Knex } from 'knex';
import { appendAudit } from '@media-site/db/admin';
import { mailSiteFromEnv } from '@media-site/db/mail';
import {
  acknowledgeReport,
  activeTakedowns,
  appealDecisionNotices,
  appealReceivedNotice,
  deadlinesOf,
  decideAppeal,
  type HolidayList,
  nextDeadline,
  openReports,
  outcomeNotice,
  overdue,
  parseHolidays,
  recordAppeal,
  reportByReference,
  type ReportRow,
  ReportRuleError,
  resolveReport,
  restore,
  takeDown,
  takedownLog,
} from '@media-site/db/reports';
import { announce, contentRef } from './content-change';
import { monthlyExport } from './reports-export';
import {
  ACTOR_MAX,
  APPEAL_DECISIONS,
  DETAILS_MAX,
  EMAIL_MAX,
  NOTE_MAX,
  OUTCOMES,
  type AppealDecision,
  type Outcome,
} from '@media-site/contracts/report-vocabulary';
import { isoTime } from '@media-site/contracts/iso-time';

const iso = (ms: number | null) => isoTime(ms, '-', 's');
const now = (ctx: CommandContext) => (ctx.io.now ?? Date.now)();
const holidaysOf = (ctx: CommandContext): HolidayList => parseHolidays(ctx.io.env.REPORT_HOLIDAYS);

function text(flags: Record<string, unknown>, name: string, max: number): string {
  const value = typeof flags[name] === 'string' ? (flags[name] as string).trim() : '';
  if (value === '') throw new ReportRuleError('bad_input', `--${name} is required`);
  if (value.length > max) throw new ReportRuleError('bad_input', `--${name} is longer than ${max} characters`);
  return value;
}

/** The appellant's address, when the appeal came with one: it gets the acknowledgement and the decision. */
function appealEmail(flags: Record<string, unknown>): string | null {
  const value = typeof flags.email === 'string' ? flags.email.trim() : '';
  if (value === '') return null;
  if (value.length > EMAIL_MAX || !/^[^\s@]+@[^\s@]+$/.test(value))
    throw new ReportRuleError('bad_input', `--email must be an e-mail address of at most ${EMAIL_MAX} characters`);
  return value;
}

function oneOf<T extends string>(flags: Record<string, unknown>, name: string, allowed: readonly T[]): T {
  const value = flags[name];
  if (typeof value !== 'string' || !allowed.includes(value as T))
    throw new ReportRuleError('bad_input', `--${name} must be one of ${allowed.join(', ')}`);
  return value as T;
}

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

/** Open reports, those with a broken promise first, then by their next deadline. */
export function queueOrder(reports: ReportRow[], at: number, holidays: HolidayList): ReportRow[] {
  const key = (r: ReportRow) => ({ late: overdue(r, at, holidays).length > 0 ? 0 : 1, next: nextDeadline(r, holidays) ?? Infinity });
  return [...reports].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    return ka.late - kb.late || ka.next - kb.next || a.created_at - b.created_at;
  });
}

async function mustFind(ctx: CommandContext, reference: string): Promise<ReportRow> {
  const r = await reportByReference(ctx.knex, reference);
  if (!r) throw new ReportRuleError('not_found', `no report ${reference}`);
  return r;
}

/** A report change and its audit row (actor `cli:<user>`) in one transaction, with any mail it queues. */
async function audited(
  ctx: CommandContext,
  action: string,
  reference: string,
  at: number,
  change: (trx: Knex.Transaction) => Promise<ReportRow>,
  after: unknown,
): Promise<ReportRow> {
  return ctx.knex.transaction(async (trx) => {
    const r = await change(trx);
    await appendAudit(trx, { actor: cliActor(ctx), action, target: reference, after, at });
    return r;
  });
}

async function reportsCommand([sub, reference]: string[], flags: Record<string, unknown>, ctx: CommandContext): Promise<number> {
  const at = now(ctx);
  const holidays = holidaysOf(ctx);
  const by = () => text(flags, 'by', ACTOR_MAX);
  const needRef = () => {
    if (!reference) throw new ReportRuleError('bad_input', `reports ${sub} needs a report reference`);
    return reference;
  };
  let changed: ReportRow;
  switch (sub) {
    case 'list': {
      const queue = queueOrder(await openReports(ctx.knex), at, holidays);
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
      ctx.io.out(flags.json ? JSON.stringify({ ...r, deadlines: view(r, at, holidays) }, null, 2) : formatDetail(r, at, holidays));
      return 0;
    }
    case 'export': {
      const csv = await monthlyExport(ctx.knex, String(flags.month ?? ''), at, holidays).catch((err: unknown) => {
        throw err instanceof RangeError ? new ReportRuleError('bad_input', `--month: ${err.message}`) : err;
      });
      if (typeof flags.out === 'string') await writeFile(resolve(ctx.io.env.INIT_CWD ?? process.cwd(), flags.out), csv);
      else ctx.io.out(csv.trimEnd());
      return 0;
    }
    case 'ack': {
      const ref = needRef();
      const who = by();
      changed = await audited(ctx, 'report.ack', ref, at, (trx) => acknowledgeReport(trx, ref, who, at), { by: who });
      break;
    }
    // Each decision and its mail commit together: no outcome without its mail, no mail for an outcome rolled back.
    case 'resolve': {
      const ref = needRef();
      const resolution = { outcome: oneOf<Outcome>(flags, 'outcome', OUTCOMES), note: text(flags, 'note', NOTE_MAX), by: by(), now: at };
      const { outcome, note, by: who } = resolution;
      changed = await audited(
        ctx,
        'report.resolve',
        ref,
        at,
        async (trx) => {
          const r = await resolveReport(trx, ref, resolution);
          await outcomeNotice(trx, mailSiteFromEnv(ctx.io.env), r);
          return r;
        },
        { outcome, note, by: who },
      );
      break;
    }
    case 'appeal': {
      const ref = needRef();
      const appeal = { text: text(flags, 'text', DETAILS_MAX), email: appealEmail(flags), now: at };
      changed = await audited(
        ctx,
        'report.appeal',
        ref,
        at,
        async (trx) => {
          const r = await recordAppeal(trx, ref, appeal);
          await appealReceivedNotice(trx, mailSiteFromEnv(ctx.io.env), r, holidays);
          return r;
        },
        { text: appeal.text },
      );
      break;
    }
    case 'decide': {
      const ref = needRef();
      const decision = {
        decision: oneOf<AppealDecision>(flags, 'decision', APPEAL_DECISIONS),
        note: text(flags, 'note', NOTE_MAX),
        by: by(),
        now: at,
      };
      changed = await audited(
        ctx,
        'report.decide',
        ref,
        at,
        async (trx) => {
          const r = await decideAppeal(trx, ref, decision);
          await appealDecisionNotices(trx, mailSiteFromEnv(ctx.io.env), r);
          return r;
        },
        { decision: decision.decision, note: decision.note, by: decision.by },
      );
      break;
    }
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
