import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** CPU seconds (user + system) the processes have used so far, from /proc. */
export function cpuSeconds(pids: Array<number | string>): number {
  let ticks = 0;
  for (const pid of pids) {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').at(-1)?.split(' ') ?? [];
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks / 100; // CLK_TCK
}

/**
 * Runs wrk (`args`: its options, then the URL) and returns its requests per second and the CPU
 * time per request of the processes `cpu` measures (their CPU seconds so far).
 */
export function wrkRate(args: string[], cpu: () => number): { perSecond: number; cpuMicros: number } {
  const before = cpu();
  const out = spawnSync('wrk', args, { encoding: 'utf8' });
  const used = cpu() - before;
  const perSecond = Number(/Requests\/sec:\s+([\d.]+)/.exec(out.stdout)?.[1] ?? NaN);
  const requests = Number(/\b(\d+) requests in/.exec(out.stdout)?.[1] ?? NaN);
  if (out.status !== 0 || /Non-2xx|Socket errors/.test(out.stdout) || Number.isNaN(perSecond))
    throw new Error(`wrk ${args.at(-1)}: ${out.stdout}${out.stderr}`);
  return { perSecond, cpuMicros: (used / requests) * 1e6 };
}
