import { execFile, spawn, type ExecFileOptions } from 'node:child_process';
import { promisify } from 'node:util';

/**
 * ffmpeg runs under a small sh watchdog, in a process group of its own (`detached` below): the
 * shell holds the read end of a pipe whose only writer is this process, and kills ffmpeg when it
 * reads end-of-file. So a worker that dies, SIGKILL included, takes its ffmpeg with it at once
 * (ffmpeg would otherwise run on as an orphan: Node leaves SIGPIPE ignored in children, so a dead
 * progress pipe does not stop it), and closing the pipe is how a running encode is cancelled.
 */
const WATCHDOG =
  'exec 3<&0; "$@" </dev/null & child=$!; { read -r _ <&3; kill -KILL "$child" 2>/dev/null; } & watcher=$!; wait "$child"; status=$?; kill "$watcher" 2>/dev/null; exit "$status"';

export class FfmpegError extends Error {}
export class EncodeCancelled extends Error {
  constructor() {
    super('cancelled');
  }
}

export interface FfmpegRun {
  ffmpeg: string;
  args: string[];
  /** Scheduling priority (nice, 0-19): the site's own processes go first while encoding. */
  nice: number;
  /** Seconds of output expected; with it, onProgress gets the done share 0..1. */
  duration?: number;
  onProgress?: (share: number) => void;
  signal?: AbortSignal;
}

/** Keeps the end of ffmpeg's error output for the job's error text. */
function tail(text: string, max = 400): string {
  const trimmed = text.trim();
  return trimmed.length > max ? `…${trimmed.slice(-max)}` : trimmed;
}

export function runFfmpeg(run: FfmpegRun): Promise<void> {
  if (run.signal?.aborted) return Promise.reject(new EncodeCancelled());
  const niced = run.nice > 0 ? ['nice', '-n', String(run.nice)] : [];
  const child = spawn(
    'sh',
    [
      '-c',
      WATCHDOG,
      'sh',
      ...niced,
      run.ffmpeg,
      '-hide_banner',
      '-v',
      'error',
      '-nostdin',
      '-y',
      ...run.args,
      '-progress',
      'pipe:1',
      '-nostats',
    ],
    {
      stdio: ['pipe', 'pipe', 'pipe'],
      // Its own process group: a Ctrl-C in a terminal or a supervisor's signal to the worker's group
      // reaches the worker, which cancels the encode and hands its job back, instead of killing
      // ffmpeg first (the job then failed with ffmpeg's error and an attempt counted).
      detached: true,
    },
  );
  let stderr = '';
  let pending = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    pending += chunk;
    let newline: number;
    while ((newline = pending.indexOf('\n')) >= 0) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      // out_time_us (and, despite its name, out_time_ms) are microseconds; "N/A" before the first frame.
      const match = /^out_time_(?:us|ms)=(\d+)$/.exec(line.trim());
      if (match && run.duration && run.onProgress) run.onProgress(Math.min(1, Number(match[1]) / 1e6 / run.duration));
    }
  });
  // The pipe is the watchdog's lifeline; an EPIPE after ffmpeg is gone is expected.
  child.stdin.on('error', () => {});
  const cancel = () => child.stdin.end();
  run.signal?.addEventListener('abort', cancel, { once: true });
  return new Promise((resolve, reject) => {
    child.once('error', (err) => reject(new FfmpegError(`could not start ffmpeg: ${err.message}`)));
    child.once('close', (code) => {
      run.signal?.removeEventListener('abort', cancel);
      child.stdin.destroy();
      if (run.signal?.aborted) reject(new EncodeCancelled());
      else if (code === 0) resolve();
      else reject(new FfmpegError(`ffmpeg exited with ${code}: ${tail(stderr) || 'no message'}`));
    });
  });
}

const execFileAsync = promisify(execFile);

/**
 * ffprobe and the other short tool runs, each in a process group of its own like ffmpeg: a signal to
 * the worker's group must not kill them under it (ffprobe "failing" on a good file). They end by
 * themselves within their timeout if the worker dies meanwhile.
 */
export function runTool(file: string, args: readonly string[], options: ExecFileOptions = {}): Promise<{ stdout: string; stderr: string }> {
  // `detached` reaches spawn() through execFile at run time; ExecFileOptions does not list it.
  const withGroup = { ...options, encoding: 'utf8', detached: true } as ExecFileOptions;
  return execFileAsync(file, args, withGroup) as Promise<{ stdout: string; stderr: string }>;
}

/** Whether a failed tool run was killed by a signal (ours or someone else's): then the file is not to blame. */
export function killedBySignal(err: unknown): boolean {
  return typeof err === 'object' && err !== null && Boolean((err as { signal?: unknown }).signal);
}
