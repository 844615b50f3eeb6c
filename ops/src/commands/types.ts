import { userInfo } from 'node:os';
import type { Knex } from 'knex';
import type { ParseArgsConfig } from 'node:util';
import type { CliConfig } from './config';

// What every command group shares: the dispatcher (registry.ts) imports the groups, and the groups
// import only this module, so no command file imports the registry back.

/** A wrong command line: the dispatcher prints the message and the usage and exits 2. */
export class UsageError extends Error {}

export interface CliIo {
  env: NodeJS.ProcessEnv;
  out: (text: string) => void;
  err: (text: string) => void;
  /** Raw stderr writes (the encode progress bar), used when isTTY. */
  write?: (text: string) => void;
  isTTY?: boolean;
  /** An open database (tests); otherwise one is opened from DATABASE_URL and closed afterwards. */
  knex?: Knex;
  /** Unix ms; tests pin the clock (report deadlines). */
  now?: () => number;
  /** What `member add --password-stdin` reads (tests); otherwise process.stdin. */
  stdin?: () => Promise<string>;
}

export interface CommandContext {
  knex: Knex;
  config: CliConfig;
  io: CliIo;
}

export interface Command {
  usage: string;
  options: NonNullable<ParseArgsConfig['options']>;
  /** How many positional arguments the command takes. */
  positionals: number;
  /** Fewer positionals accepted (subcommands with an optional argument); defaults to `positionals`. */
  minPositionals?: number;
  run(positionals: string[], flags: Record<string, unknown>, ctx: CommandContext): Promise<number>;
}

/** The audit log's actor for a CLI change: the operating-system user who ran it. */
export function cliActor(ctx: CommandContext): string {
  let user = ctx.io.env.USER ?? ctx.io.env.LOGNAME;
  if (!user) {
    try {
      user = userInfo().username;
    } catch {
      user = 'unknown';
    }
  }
  return `cli:${user.slice(0, 60)}`;
}
