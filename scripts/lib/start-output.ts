import type { LogLine } from './process';

/** Lines kept per part while the site starts: what a failed start prints. */
const HELD_PER_PART = 100;
const WARN = 40;
const ERROR = 50;
const NGINX_LEVELS: Record<string, number> = { warn: WARN, error: ERROR, crit: 60, alert: 60, emerg: 60 };

/** What a line says of itself: pino's JSON `level` and `time`, nginx's `[warn]`...; level 0 when it does not say. */
export function lineFacts(line: string): { level: number; time?: number; json: boolean } {
  if (line.startsWith('{')) {
    try {
      const { level, time } = JSON.parse(line) as { level?: unknown; time?: unknown };
      return { level: typeof level === 'number' ? level : 0, time: typeof time === 'number' ? time : undefined, json: true };
    } catch {
      return { level: 0, json: false };
    }
  }
  const nginx = /^\S+ \S+ \[(\w+)\]/.exec(line)?.[1];
  return { level: (nginx && NGINX_LEVELS[nginx]) || 0, json: false };
}

export interface StartOutput {
  /** The parts' lines (SiteOptions.onLine). */
  onLine: LogLine;
  /** One line per part as it gets ready (SiteOptions.onReady). */
  onReady(part: string, detail: string): void;
  /** The site is up: from now on every line shows, and what was held is dropped. */
  live(): void;
  /**
   * The start failed: print what was held that is not a service's routine JSON line (info and
   * below: probes answered 503, retries), so the reason (a configuration error, a crash's stack)
   * is on screen above the failure.
   */
  failed(): void;
}

/**
 * `npm start`'s output. While the site starts, the parts' own lines are held back (readiness probes
 * answered 503, list retries while the bff comes up): a warning or an error shows at once, and so
 * does every line of the parts in `shown` (the encoder runs `--quiet`: it only speaks of trouble).
 * Routine lines written before the site was up but read after it (a pipe's delay) stay held too.
 */
export function startOutput(
  shown: string[] = ['encoder'],
  out: (line: string) => void = console.log,
  err: (line: string) => void = console.error,
): StartOutput {
  const held = new Map<string, string[]>();
  let liveSince: number | undefined;
  return {
    onLine(name, line) {
      const { level, time } = lineFacts(line);
      const routineOfTheStart = level < WARN && !shown.includes(name) && (liveSince === undefined || (time ?? Infinity) < liveSince);
      if (!routineOfTheStart) {
        (level >= ERROR ? err : out)(`[${name}] ${line}`);
        return;
      }
      if (liveSince !== undefined) return;
      const lines = held.get(name) ?? [];
      lines.push(line);
      if (lines.length > HELD_PER_PART) lines.shift();
      held.set(name, lines);
    },
    onReady(part, detail) {
      out(`${part} ready ${detail}`);
    },
    live() {
      liveSince = Date.now();
      held.clear();
    },
    failed() {
      for (const [name, lines] of held) for (const line of lines) if (!lineFacts(line).json) err(`[${name}] ${line}`);
      held.clear();
    },
  };
}
