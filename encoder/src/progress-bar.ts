import type { WorkerEvent } from './worker';

export interface ProgressOutput {
  err: (text: string) => void;
  /** Raw writes for the redrawn line (a terminal); absent: plain lines only. */
  write?: (text: string) => void;
}

export interface EncodeTally {
  done: number;
  failed: number;
  retried: number;
  seconds: number;
}

const BAR = 24;

export function bar(share: number): string {
  const filled = Math.round(Math.max(0, Math.min(1, share)) * BAR);
  return `[${'#'.repeat(filled)}${'-'.repeat(BAR - filled)}] ${String(Math.floor(share * 100)).padStart(3)}%`;
}

const name = (job: { contentType: string; path: string }) => `${job.contentType}/${job.path}`;

/**
 * What the operator sees while the encoder runs: on a terminal, one redrawn line with a bar per
 * running job; otherwise (logs, npm start) a line per finished or failed job. `quiet` keeps failures only.
 */
export function progressReporter(out: ProgressOutput, options: { quiet?: boolean } = {}) {
  const running = new Map<number, { label: string; share: number }>();
  const tally: EncodeTally = { done: 0, failed: 0, retried: 0, seconds: 0 };
  let lastDraw = 0;
  let drawn = false;

  const clear = () => {
    if (drawn && out.write) out.write('\r\x1b[K');
    drawn = false;
  };
  const draw = (force = false) => {
    if (!out.write || options.quiet) return;
    const now = Date.now();
    if (!force && now - lastDraw < 100) return;
    lastDraw = now;
    const jobs = [...running.values()].map((j) => `${bar(j.share)} ${j.label}`).join('  ');
    out.write(`\r\x1b[K${jobs || 'waiting for jobs'}  (${tally.done} done, ${tally.failed} failed)`);
    drawn = true;
  };
  const line = (text: string, always = false) => {
    if (options.quiet && !always) return;
    clear();
    out.err(text);
    draw(true);
  };

  return {
    tally,
    onEvent(event: WorkerEvent): void {
      if (event.kind === 'idle') {
        line(`encoder idle: ${tally.done} encoded, ${tally.failed} failed so far`, true);
        return;
      }
      if (event.kind === 'error') {
        line(`encode queue unavailable: ${event.error}`, true);
        return;
      }
      const { job } = event;
      switch (event.kind) {
        case 'started':
          running.set(job.id, { label: name(job), share: 0 });
          draw(true);
          break;
        case 'progress': {
          const entry = running.get(job.id);
          if (entry) entry.share = event.share;
          draw();
          break;
        }
        case 'done':
          running.delete(job.id);
          tally.done++;
          tally.seconds += event.seconds;
          line(
            `encoded ${name(job)} in ${event.seconds.toFixed(1)} s: ${event.manifest.renditions.map((r) => r.label).join(', ')}, ${event.manifest.duration.toFixed(1)} s of video${event.requeued ? ' (its original changed meanwhile: queued again)' : ''}`,
          );
          break;
        case 'failed':
          running.delete(job.id);
          if (event.final) tally.failed++;
          else tally.retried++;
          line(`${event.final ? 'failed' : 'will retry'} ${name(job)} (attempt ${job.attempts}): ${event.error}`, true);
          break;
        case 'released':
        case 'lost':
          running.delete(job.id);
          line(`${event.kind === 'released' ? 'handed back' : 'lost the claim on'} ${name(job)}`);
          break;
      }
    },
    finish(): void {
      clear();
    },
  };
}
