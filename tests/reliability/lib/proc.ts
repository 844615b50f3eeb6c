import { readFileSync } from 'node:fs';

/** Resident memory of a process in MiB, from /proc (Linux). */
export function rssMiB(pid: number | undefined): number {
  if (!pid) throw new Error('no pid');
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1];
  if (!kb) throw new Error(`no VmRSS for ${pid}`);
  return Math.round((Number(kb) / 1024) * 10) / 10;
}
