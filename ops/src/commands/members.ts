import { randomBytes } from 'node:crypto';
import { cliActor, type Command, type CommandContext } from './types';
import {
  addMember,
  disableMember,
  enableMember,
  endMemberSessions,
  EXTEND_DAYS_MAX,
  EXTEND_DAYS_MIN,
  extendMembership,
  hashPassword,
  listMembers,
  MemberRuleError,
  type MemberSummary,
} from '@media-site/db/members';
import { recordRead } from '@media-site/db/admin';
import { DISABLE_REASON_MAX, EMAIL, EMAIL_MAX, PASSWORD_MAX, PASSWORD_MIN, USERNAME } from '@media-site/contracts/member-rules';
import { isoTime } from '@media-site/contracts/iso-time';

const DEFAULT_DAYS = 30;
const MAX_DAYS = 3650;

const iso = (ms: number | null) => isoTime(ms, '-', 's');
const bad = (message: string) => new MemberRuleError('bad_input', message);

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** --password, the first line of stdin, or (neither given) a generated one the command prints once. */
async function passwordOf(flags: Record<string, unknown>, ctx: CommandContext): Promise<{ password: string; generated: boolean }> {
  if (typeof flags.password === 'string' && flags['password-stdin']) throw bad('give --password or --password-stdin, not both');
  let password: string;
  if (flags['password-stdin']) password = (await (ctx.io.stdin ?? readStdin)()).split(/\r?\n/)[0] ?? '';
  else if (typeof flags.password === 'string') password = flags.password;
  else return { password: randomBytes(12).toString('base64url'), generated: true };
  if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX)
    throw bad(`the password must be ${PASSWORD_MIN}-${PASSWORD_MAX} characters`);
  return { password, generated: false };
}

function daysOf(flags: Record<string, unknown>): number {
  if (flags.days === undefined) return DEFAULT_DAYS;
  const days = Number(flags.days);
  if (!/^\d+$/.test(String(flags.days)) || days > MAX_DAYS) throw bad(`--days must be a whole number from 0 to ${MAX_DAYS}`);
  return days;
}

function emailOf(flags: Record<string, unknown>): string {
  const email = typeof flags.email === 'string' ? flags.email.trim() : '';
  if (email !== '' && (email.length > EMAIL_MAX || !EMAIL.test(email))) throw bad('--email must be an e-mail address');
  return email;
}

function statusOf(m: MemberSummary, now: number): string {
  if (m.disabledAt !== null) return 'disabled';
  if (m.revokedAt !== null) return 'revoked';
  if (m.paidUntil !== null && m.paidUntil > now) return 'active';
  return m.paidUntil === null ? 'no-membership' : 'lapsed';
}

function formatMember(m: MemberSummary, now: number): string {
  const status = statusOf(m, now);
  const reason = m.disabledReason ? ` (${m.disabledReason})` : '';
  return `${m.username.padEnd(15)}  ${status.padEnd(13)}  paid until ${iso(m.paidUntil)}  vods ${m.vods}  ${m.email || '-'}${reason}`;
}

async function memberCommand([sub, username]: string[], flags: Record<string, unknown>, ctx: CommandContext): Promise<number> {
  const now = (ctx.io.now ?? Date.now)();
  const { knex, io } = ctx;
  if (sub === 'list') {
    const members = await listMembers(knex);
    // Every member's e-mail address: a read of personal data, recorded before anything is printed.
    await recordRead(knex, { actor: cliActor(ctx), now }, 'member.list', '', { shown: members.length });
    if (flags.json)
      io.out(
        JSON.stringify(
          members.map((m) => ({ ...m, status: statusOf(m, now) })),
          null,
          2,
        ),
      );
    else if (members.length === 0) io.out('no members');
    else for (const m of members) io.out(formatMember(m, now));
    return 0;
  }
  if (sub !== 'add' && sub !== 'disable' && sub !== 'enable' && sub !== 'signout-all' && sub !== 'extend')
    throw bad(`unknown member subcommand: ${String(sub)}`);
  if (!username) throw bad(`member ${sub} needs a username`);
  if (!USERNAME.test(username)) throw bad('the username must be 3-15 letters, digits or _');
  switch (sub) {
    case 'add': {
      const days = daysOf(flags);
      const email = emailOf(flags);
      const { password, generated } = await passwordOf(flags, ctx);
      await addMember(knex, { username, passwordHash: await hashPassword(password), email, days, now }, { actor: cliActor(ctx) });
      io.out(`added: ${username}${days > 0 ? `, membership paid until ${iso(now + days * 86_400_000)}` : ', no membership'}`);
      if (generated) io.out(`password: ${password}`);
      return 0;
    }
    case 'disable': {
      const reason = typeof flags.reason === 'string' ? flags.reason.trim() : '';
      if (reason === '') throw bad('--reason is required');
      if (reason.length > DISABLE_REASON_MAX) throw bad(`--reason is longer than ${DISABLE_REASON_MAX} characters`);
      const { sessions } = await disableMember(knex, username, reason, now, { actor: cliActor(ctx) });
      io.out(
        `disabled: ${username} (${sessions} session(s) ended); the media service refuses their tokens and links at its next revocation poll`,
      );
      return 0;
    }
    case 'extend': {
      const text = typeof flags.days === 'string' ? flags.days : '';
      if (!/^\d{1,3}$/.test(text)) throw bad(`--days must be a whole number from ${EXTEND_DAYS_MIN} to ${EXTEND_DAYS_MAX}`);
      const reason = typeof flags.reason === 'string' ? flags.reason : '';
      const { before, paidUntil } = await extendMembership(knex, username, { days: Number(text), reason, now }, { actor: cliActor(ctx) });
      io.out(`extended: ${username}, paid until ${iso(paidUntil)} (was ${iso(before)}); the site shows it at once`);
      return 0;
    }
    case 'signout-all': {
      const { sessions } = await endMemberSessions(knex, username, { actor: cliActor(ctx), now });
      io.out(`signed out: ${username} (${sessions} session(s) ended; older media links stop at the media service's next poll)`);
      return 0;
    }
    default: {
      const { wasDisabled, wasRevoked } = await enableMember(knex, username, { actor: cliActor(ctx), now });
      const cleared = [wasDisabled ? 'disable' : '', wasRevoked ? 'chargeback/refund revocation' : ''].filter(Boolean).join(' and ');
      io.out(`enabled: ${username} (cleared the ${cleared}; charged-back purchases stay withdrawn)`);
      return 0;
    }
  }
}

export const memberCommands: Record<string, Command> = {
  member: {
    usage: `member add|disable|enable|signout-all|list [<username>] [options]
    Site members (docs/operate.md, "Members").
    add <username> [--password-stdin | --password <p>] [--email <address>] [--days N]
        --password-stdin reads the first line of stdin (--password shows in ps and shell history);
        with neither, a password is generated and printed once. --days: membership length
        (default ${DEFAULT_DAYS}; 0 = an account without a membership).
    disable <username> --reason <text>   ends the member's sessions, refuses sign-in, and puts them
        on the media service's revocation list (links and tokens stop at its next poll)
    enable <username>   the only way back after a disable or a chargeback, refund, return or
        void (which withdraw the membership and every bought VOD); the charged-back purchase itself
        stays withdrawn
    signout-all <username>   ends every session of the member and what they minted (as the
        console's support "end sessions"), audited
    extend <username> --days N --reason <text>   adds N days (${EXTEND_DAYS_MIN}-${EXTEND_DAYS_MAX}) to the membership's
        paid-until time (from now when it has lapsed or there is none), audited with the reason
        (as the console's support "Extend")
    list [--json]`,
    options: {
      password: { type: 'string' },
      'password-stdin': { type: 'boolean' },
      email: { type: 'string' },
      days: { type: 'string' },
      reason: { type: 'string' },
      json: { type: 'boolean' },
    },
    minPositionals: 1,
    positionals: 2,
    run: memberCommand,
  },
};
