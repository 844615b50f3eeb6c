import { parseArgs, type ParseArgsConfig } from 'node:util';

export class UsageError extends Error {}

type Options = NonNullable<ParseArgsConfig['options']>;

/** Strict flag parsing: an unknown flag or stray argument is a UsageError (exit code 2). */
export function parseFlags<O extends Options>(argv: string[], options: O) {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: false }).values;
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
}

/** Runs a CLI body: usage problems exit 2 with the usage text, other failures exit 1. */
export async function runCli(usage: string, body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`${err.message}\n\n${usage}`);
      process.exitCode = 2;
      return;
    }
    console.error('failed:', err instanceof Error ? err.message : err);
    process.exitCode = 1;
  }
}
