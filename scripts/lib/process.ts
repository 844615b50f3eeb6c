import { spawn, type ChildProcess } from 'node:child_process';
import { freeLoopbackPort } from '@media-site/contracts/loopback-port';
import { setTimeout as sleep } from 'node:timers/promises';

export interface Child {
  name: string;
  proc: ChildProcess;
  /** Sends SIGTERM, waits for the exit (SIGKILL after graceMs). */
  stop(graceMs?: number): Promise<void>;
  exited: Promise<number | null>;
}

export type LogLine = (name: string, line: string) => void;

/** Runs a TypeScript entry point under tsx as a child process, prefixing its output lines. */
export function spawnTs(name: string, entry: string, env: NodeJS.ProcessEnv, onLine: LogLine): Child {
  return spawnCommand(name, process.execPath, ['--import', 'tsx', entry], env, onLine);
}

export function spawnCommand(name: string, command: string, args: string[], env: NodeJS.ProcessEnv, onLine: LogLine): Child {
  const proc = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  for (const stream of [proc.stdout, proc.stderr]) {
    let buffered = '';
    stream?.setEncoding('utf8');
    stream?.on('data', (chunk: string) => {
      buffered += chunk;
      let newline: number;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        onLine(name, buffered.slice(0, newline));
        buffered = buffered.slice(newline + 1);
      }
    });
  }
  const exited = new Promise<number | null>((resolve) => {
    proc.once('exit', (code) => resolve(code));
    proc.once('error', (err) => {
      onLine(name, `failed to start: ${err.message}`);
      resolve(1);
    });
  });
  return {
    name,
    proc,
    exited,
    async stop(graceMs = 10_000) {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      proc.kill('SIGTERM');
      const timer = setTimeout(() => proc.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * Ports handed out by this process: never handed out twice. A port found free and closed again
 * used to come back from the next `listen(0)` as well: `npm start` once gave the bff the
 * simulator's port (EADDRINUSE; the media service then polled the simulator for its lists and never
 * became ready, the "readyz over 30 s" seen in loaded CI runs).
 */
const handedOut = new Set<number>();
/** A loopback port nobody listens on, not handed out before by this process; random, so parallel test processes rarely meet. */
export function freePort(): Promise<number> {
  return freeLoopbackPort(handedOut);
}

/**
 * Polls url until it answers 2xx, the child exits, or timeoutMs passes (60 s: two stacks and Chromium
 * starting at once on two loaded cores took over 30 s twice; the error says what the last try got).
 */
export async function waitHealthy(url: string, child: Child | undefined, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  void child?.exited.then(() => {
    exited = true;
  });
  // What the last try got, for the error: a status and body (a /readyz names what it waits for) or why it failed.
  let last = 'no answer yet';
  while (Date.now() < deadline) {
    if (exited) throw new Error(`${child?.name} exited before it became healthy`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
      if (res.ok) return;
      last = `${res.status} ${(await res.text()).slice(0, 500)}`;
    } catch (err) {
      // not listening yet
      last = (err as Error).cause instanceof Error ? ((err as Error).cause as Error).message : (err as Error).message;
    }
    await sleep(100);
  }
  throw new Error(`${url} did not become healthy within ${timeoutMs} ms (last try: ${last})`);
}
