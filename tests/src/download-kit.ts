// Shared by the download tests that cut a transfer off midway and resume it (media-resume,
// rendition-download): a file whose hash catches a splice at a wrong offset, its hash, and the
// download tools run as child processes, cut off and resumed (expectResumed, expectAria2Resumed).
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, createReadStream, mkdirSync, openSync, statSync, writeSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { expect } from 'vitest';

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

/** `writeBlocks` into `path` (its folder made); answers the file's SHA-256. */
export async function plantBlocks(path: string, size: number): Promise<string> {
  mkdirSync(dirname(path), { recursive: true });
  writeBlocks(path, size);
  return sha256(path);
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
async function interrupted(cmd: string, args: string[], file: string, atLeast: number): Promise<number> {
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
async function aria2Stopped(options: string[], source: string, limit: string, controlFile: string): Promise<boolean> {
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

/** What a cut-off download should end as once resumed: `size` bytes hashing to `sha256`; `rateMiB` paces the first try. */
export interface WholeFile {
  size: number;
  sha256: string;
  rateMiB: number;
}

async function expectWhole(file: string, whole: WholeFile): Promise<void> {
  expect(statSync(file).size).toBe(whole.size);
  expect(await sha256(file)).toBe(whole.sha256);
}

const CUT_AND_RESUME = {
  curl: (source: string, target: string, rateMiB: number) => ({
    cut: ['-sS', '--limit-rate', `${rateMiB}M`, '-o', target, source],
    resume: ['-sS', '-f', '-C', '-', '-o', target, source],
  }),
  wget: (source: string, target: string, rateMiB: number) => ({
    cut: ['-q', `--limit-rate=${rateMiB}m`, '-O', target, source],
    resume: ['-q', '-c', '-O', target, source],
  }),
};

/** `tool` fetches `source` into `target`, is killed once `cutAt` bytes are there (midway), resumes (`curl -C -`, `wget -c`) and finishes with the whole file. */
export async function expectResumed(tool: 'curl' | 'wget', source: string, target: string, cutAt: number, whole: WholeFile): Promise<void> {
  const args = CUT_AND_RESUME[tool](source, target, whole.rateMiB);
  const got = await interrupted(tool, args.cut, target, cutAt);
  expect(got).toBeGreaterThan(0);
  expect(got).toBeLessThan(whole.size);
  const resumed = await runTool(tool, args.resume);
  expect(resumed.status, resumed.stderr).toBe(0);
  await expectWhole(target, whole);
}

/** aria2c with 4 segments fetches `source` into `dir/name`, is stopped midway, resumes with -c and finishes with the whole file. */
export async function expectAria2Resumed(source: string, dir: string, name: string, whole: WholeFile): Promise<void> {
  mkdirSync(dir, { recursive: true });
  const common = ['-q', '-d', dir, '-o', name, '-x', '4', '-s', '4', '-k', '1M', '--file-allocation=none', '--allow-overwrite=false'];
  const control = await aria2Stopped(common, source, `${whole.rateMiB}M`, join(dir, `${name}.aria2`));
  expect(control, 'aria2 left a control file: the download was cut off before the end').toBe(true);
  const resumed = await runTool('aria2c', ['-c', ...common, source]);
  expect(resumed.status, resumed.stderr).toBe(0);
  await expectWhole(join(dir, name), whole);
}
