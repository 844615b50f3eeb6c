import type { Knex } from 'knex';
import { parseArgs } from 'node:util';
import { createKnex, migrateLatest, RuleError } from '@media-site/db';
import { FolderError } from '../ingest/ingest';
import { adminCommands } from './admins';
import { backupCommands } from './backup';
import { catalogCommands } from './catalog';
import { dashboardCommands } from './dashboard';
import { loadCliConfig } from './config';
import { encodeCommands } from './encode';
import { memberCommands } from './members';
import { paymentCommands } from './payments';
import { queueCommands } from './queues';
import { maintenanceCommands } from './maintenance';
import { reportCommands } from './reports';
import { UsageError, type CliIo, type Command } from './types';

export { loadCliConfig, type CliConfig } from './config';
export type { CliIo } from './types';

// The one registry of operator commands: a file per group, each a table of commands with their
// usage, flags and run function; the dispatcher, exit codes and help follow.
const groups: Record<string, Record<string, Command>> = {
  catalog: catalogCommands,
  encode: encodeCommands,
  members: memberCommands,
  reports: reportCommands,
  payments: paymentCommands,
  admins: adminCommands,
  dashboard: dashboardCommands,
  backup: backupCommands,
  queues: queueCommands,
  maintenance: maintenanceCommands,
};

/** Every command by its bare name; a name in two groups would make one unreachable, so it is refused here. */
const commands: Record<string, Command> = {};
for (const [group, members] of Object.entries(groups)) {
  for (const [name, command] of Object.entries(members)) {
    if (name in commands) throw new Error(`ops: the command "${name}" of the ${group} group has the name of another group's command`);
    commands[name] = command;
  }
}

/**
 * `ops <group> <command> ...` and `ops <command> ...` both work (`catalog ingest`, `ingest`; the old
 * `catalog` entry passes bare commands). A group of one command stands for it: `ops members add x`
 * is `member add x`, `ops payments list` is `reconcile list`.
 */
function ungrouped(argv: string[]): string[] {
  const [first, second, ...rest] = argv;
  const group = first === undefined ? undefined : groups[first];
  if (!group) return argv;
  if (second !== undefined && second in group) return [second, ...rest];
  const only = Object.keys(group);
  if (!(first! in commands) && only.length === 1) return [only[0]!, ...argv.slice(1)];
  return argv;
}

export const USAGE = `usage: npm run ops -- [<group>] <command> [options]   (\`npm run catalog -- <command>\` is the same)

${Object.entries(groups)
  .map(
    ([group, members]) =>
      `${group}:\n\n${Object.values(members)
        .map((c) => `  ${c.usage}`)
        .join('\n\n')}`,
  )
  .join('\n\n')}

Environment: DATABASE_URL (default: embedded SQLite under .data), MEDIA_ROOT (default: .data/media),
REDIS_URL (optional: announce catalog changes to running bff instances), CACHE_KEY_PREFIX (media:),
STORAGE (local | s3: ingest and encode keep every media file in S3_BUCKET at S3_ENDPOINT, nothing under
MEDIA_ROOT; ENCODER_SCRATCH_DIR holds their temporary files; see docs/operate.md),
FFMPEG_PATH / FFPROBE_PATH (ffmpeg, ffprobe), ENCODE_CONCURRENCY / ENCODE_THREADS / ENCODE_PRESET /
ENCODE_NICE / ENCODE_LEASE_SECONDS / ENCODE_MAX_ATTEMPTS (the encoder, see README), REPORT_HOLIDAYS (YYYY-MM-DD,... not business days),
SITE_NAME (the TOTP issuer "admin add" writes), BACKUP_DIR / BACKUP_KEEP_DAILY / BACKUP_KEEP_WEEKLY (backup).
Exit codes: 0 ok, 1 failure, 2 usage.`;

function parseCommand(argv: string[]): { command: Command; positionals: string[]; flags: Record<string, unknown> } {
  const [name, ...rest] = ungrouped(argv);
  const command = name === undefined ? undefined : commands[name];
  if (!command) throw new UsageError(name === undefined ? 'no command given' : `unknown command: ${name}`);
  let parsed;
  try {
    parsed = parseArgs({ args: rest, options: command.options, strict: true, allowPositionals: true });
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
  const count = parsed.positionals.length;
  if (count > command.positionals || count < (command.minPositionals ?? command.positionals)) {
    throw new UsageError(`${name} takes ${command.positionals} argument(s), got ${parsed.positionals.length}`);
  }
  return { command, positionals: parsed.positionals, flags: parsed.values };
}

/** Runs one operator command and returns its exit code: 0 ok, 1 failure, 2 usage. */
export async function runOpsCommand(argv: string[], io: CliIo): Promise<number> {
  if (argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
    io.out(USAGE);
    return 0;
  }
  let knex: Knex | undefined;
  try {
    const { command, positionals, flags } = parseCommand(argv);
    const config = loadCliConfig(io.env);
    knex = io.knex ?? createKnex(config.databaseUrl);
    // A fresh embedded database has no tables yet; migrating is idempotent and cheap.
    if (!io.knex) await migrateLatest(knex);
    return await command.run(positionals, flags, { knex, config, io });
  } catch (err) {
    if (err instanceof RuleError) {
      io.err(err.message);
      return err.kind === 'bad_input' ? 2 : 1;
    }
    if (err instanceof UsageError || err instanceof FolderError) {
      io.err(`${err.message}\n\n${USAGE}`);
      return 2;
    }
    io.err(`failed: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  } finally {
    if (knex && !io.knex) await knex.destroy();
  }
}

/** What a command printed, each stream's lines joined by newlines, and its exit code. */
export interface CapturedRun {
  code: number;
  out: string;
  err: string;
}

/** `runOpsCommand` with what it prints collected (tests, and callers that show it elsewhere). */
export async function runOpsCaptured(argv: string[], io: Omit<CliIo, 'out' | 'err'>): Promise<CapturedRun> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runOpsCommand(argv, { ...io, out: (s) => out.push(s), err: (s) => err.push(s) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}
