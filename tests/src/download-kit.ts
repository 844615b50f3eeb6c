// Shared by the download tests that cut a transfer off midway and resume it (media-resume,
// rendition-download): a file whose hash catches a splice at a wrong offset, its hash, and the
// download tools run as child processes.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, createReadStream, openSync, statSync, writeSync } from 'node:fs';
import { stat } from 'node:fs/promises';

export const MiB = 1024 * 1024;

/** Random MiB blocks, each stamped with its index, so a splice at a wrong offset changes the hash. */
export function writeBlocks(path: string, size: number): void {
  const block = Buffer.alloc(MiB);
  for (let i = 0; i < block.length; i += 4) block.writeUInt32LE((Math.random() * 2 ** 32) >>> 0, i);
  const fd = openSync(path, 'w');
  for (let i = 0; i < size / MiB; i += 1) {
    block.writeUInt32LE(i, 0);
    writeSync(fd, block);
  }
  closeSync(fd);
}

export async function sha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path, { highWaterMark: MiB })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Async on purpose: the media service answering runs in this process. */
export function runTool(cmd: string, args: string[]): Promise<{ status: number | null; stderr: string }> {
  const child = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((r) => child.once('exit', (status) => r({ status, stderr })));
}

/** Starts a rate-limited download and kills it once `atLeast` bytes of the file have arrived. */
export async function interrupted(cmd: string, args: string[], file: string, atLeast: number): Promise<number> {
  const child = spawn(cmd, args, { stdio: 'ignore' });
  const done = new Promise<void>((r) => child.once('exit', () => r()));
  for (;;) {
    const size = await stat(file).then(
      (s) => s.size,
      () => 0,
    );
    if (size >= atLeast || child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 10));
  }
  child.kill('SIGKILL');
  await done;
  return statSync(file).size;
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

/**
 * A download manager stopped the way a user stops it: aria2c fetches `source` with `options` at `limit`
 * until its control file appears, a little more arrives, then SIGINT (aria2 saves its control file on it).
 * Answers whether the control file is still there, i.e. the download was cut off before the end.
 */
export async function aria2Stopped(options: string[], source: string, limit: string, controlFile: string): Promise<boolean> {
  const first = spawn('aria2c', [...options, `--max-overall-download-limit=${limit}`, source], { stdio: 'ignore' });
  const stopped = new Promise<void>((r) => first.once('exit', () => r()));
  const started = Date.now();
  while (Date.now() - started < 10_000 && !(await exists(controlFile))) {
    await new Promise((r) => setTimeout(r, 20));
  }
  await new Promise((r) => setTimeout(r, 800));
  first.kill('SIGINT');
  await stopped;
  return exists(controlFile);
}
