import { mkdirSync, readdirSync, readlinkSync, renameSync, rmdirSync, symlinkSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';

/**
 * The catalog generation as nginx can read it (FRONT_GENERATION_DIR): a symlink `current` pointing
 * at an empty folder `g<generation>`. nginx resolves it on every request ($realpath_root, no
 * module needed) and puts the result in its API cache key, so a bump makes every entry cached under
 * the old generation unreachable at once (nginx/nginx.conf.template, "Public catalog answers").
 *
 * Written synchronously when this process learns a new generation, before it answers any request
 * under it: once a bff sends an answer of generation N, nginx already keys on N. Only forward: a
 * replica that learns a generation late never moves the front door back to entries cached under an
 * older one. A link ahead of the database (a replaced database) is left alone and logged: nginx then
 * stores nothing (the answers' generation does not match the key) until it is removed.
 */
export class FrontGenerationLink {
  private warned = false;

  constructor(
    private readonly dir: string,
    private readonly logger: Logger,
  ) {}

  /** The generation `current` points at, or undefined when there is none (or it is not ours). */
  current(): number | undefined {
    try {
      const match = /^g(\d+)$/.exec(readlinkSync(join(this.dir, 'current')));
      return match ? Number(match[1]) : undefined;
    } catch {
      return undefined;
    }
  }

  /** Points `current` at `generation` unless it points at that one or a later one already. */
  set(generation: number): void {
    try {
      const now = this.current();
      if (now !== undefined && now >= generation) {
        if (now > generation + 1 && !this.warned) {
          this.warned = true;
          this.logger.warn(
            { dir: this.dir, link: now, generation },
            'front-door generation link is ahead of the database (replaced?): nginx caches no API answer until it is removed',
          );
        }
        return;
      }
      mkdirSync(join(this.dir, `g${generation}`), { recursive: true });
      // A new name, then an atomic rename over `current`: nginx never sees a missing link.
      const temp = join(this.dir, `.current-${process.pid}-${generation}`);
      try {
        unlinkSync(temp);
      } catch {
        // not there: the usual case
      }
      symlinkSync(`g${generation}`, temp);
      renameSync(temp, join(this.dir, 'current'));
      this.prune(generation);
    } catch (err) {
      // The front door then keys on an older generation and caches nothing (the answers' generation
      // does not match): slower, never stale.
      this.logger.warn({ err, dir: this.dir, generation }, 'could not write the front-door generation link');
    }
  }

  /** Drops generation folders well behind `generation` (nginx may still resolve the previous one). */
  private prune(generation: number): void {
    for (const name of readdirSync(this.dir)) {
      const match = /^g(\d+)$/.exec(name);
      if (match && Number(match[1]) < generation - 2) {
        try {
          rmdirSync(join(this.dir, name));
        } catch {
          // another replica removed it
        }
      }
    }
  }
}

/** Keeps FRONT_GENERATION_DIR pointing at the generation the cache follows; off when `dir` is empty. */
export function followFrontGeneration(
  cache: { currentGeneration: number | undefined; onGenerationChange(listener: (generation: number) => void): void },
  dir: string | undefined,
  logger: Logger,
): FrontGenerationLink | undefined {
  if (!dir) return undefined;
  const link = new FrontGenerationLink(dir, logger);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (err) {
    logger.warn({ err, dir }, 'could not create FRONT_GENERATION_DIR');
  }
  cache.onGenerationChange((generation) => link.set(generation));
  if (cache.currentGeneration !== undefined) link.set(cache.currentGeneration);
  return link;
}
