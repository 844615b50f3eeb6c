import { spawnSync } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync, unlinkSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStack } from '../../src/stack';
import { figure, type Figure } from '../lib/figures';
import { sleep, waitUntil } from '../lib/http';

/** Writes zeros until the file system refuses (ENOSPC); returns the bytes written. */
function fill(path: string): number {
  const fd = openSync(path, 'w');
  const chunk = Buffer.alloc(64 * 1024);
  let written = 0;
  try {
    for (let i = 0; i < 1_000_000; i++) written += writeSync(fd, chunk);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    closeSync(fd);
  }
  return written;
}

interface Probe {
  asked: number;
  originals: number;
  /** Stand-ins cached for more than a minute (the variant URL would keep the original). */
  longCached: number;
  failed: string[];
}

/** Asks the front door for a new variant (a width not asked before) of every thumbnail. */
async function probeVariants(siteUrl: string, mediaRoot: string, thumbs: string[], width: number): Promise<Probe> {
  const result: Probe = { asked: 0, originals: 0, longCached: 0, failed: [] };
  for (const thumb of thumbs) {
    result.asked++;
    const res = await fetch(`${siteUrl}${thumb}?w=${width}`, { headers: { Accept: 'image/jpeg' } });
    const body = Buffer.from(await res.arrayBuffer());
    if (res.status !== 200 || body.length === 0) {
      result.failed.push(`${thumb}: ${res.status}`);
      continue;
    }
    const original = readFileSync(join(mediaRoot, decodeURIComponent(thumb.replace(/^\/members\//, ''))));
    if (body.equals(original)) {
      result.originals++;
      const maxAge = Number(/max-age=(\d+)/.exec(res.headers.get('cache-control') ?? '')?.[1] ?? 0);
      if (maxAge > 60) result.longCached++;
    }
  }
  return result;
}

/**
 * The variant cache disk full: thumbnails are still served (the original), nothing fails, and
 * variants come back once there is room. A real full file system when a 4 MiB tmpfs can be mounted
 * (root); the VARIANT_MIN_FREE_BYTES threshold (free space below it counts as full) always.
 */
export async function diskFull(): Promise<Figure[]> {
  const figures: Figure[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'rel-variants-'));
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', dir]).status === 0;
  try {
    if (mounted) {
      const stack = await startStack({ variantCacheDir: dir, env: { VARIANT_MIN_FREE_BYTES: '0', VARIANT_MEMORY_CACHE_BYTES: '0' } });
      try {
        const thumbs = await thumbnails(stack.baseUrl);
        const filled = fill(join(dir, 'filler'));
        const full = await probeVariants(stack.baseUrl, stack.mediaRoot, thumbs, 320);
        figures.push(
          figure(
            'variant cache on a full 4 MiB tmpfs (ENOSPC on write)',
            `${full.asked - full.failed.length} of ${full.asked} thumbnails answered 200, ${full.originals} of them the original, ${full.longCached} cached > 60 s (${Math.round(filled / 1024)} KiB filler)`,
            'all served, from the original, cached briefly',
            full.failed.length === 0 && full.originals === full.asked && full.longCached === 0,
          ),
        );
        unlinkSync(join(dir, 'filler'));
        // The store re-checks free space every 5 s.
        let after: Probe = { asked: 0, originals: 0, longCached: 0, failed: [] };
        await waitUntil(
          async () => {
            after = await probeVariants(stack.baseUrl, stack.mediaRoot, thumbs.slice(0, 3), 480);
            return after.failed.length === 0 && after.originals === 0;
          },
          'variants after the disk was freed',
          20_000,
          1000,
        ).catch(() => 0);
        figures.push(
          figure(
            'room again on the variant disk',
            `${after.asked - after.originals - after.failed.length} of ${after.asked} answered as resized variants`,
            'variants resume without a restart',
            after.asked > 0 && after.originals === 0 && after.failed.length === 0,
          ),
        );
      } finally {
        await stack.stop();
      }
    } else {
      figures.push(figure('variant cache on a full tmpfs', 'not run: mount refused (not root?)', 'real ENOSPC', true));
    }
    const stack = await startStack({ env: { VARIANT_MIN_FREE_BYTES: String(2 ** 53 - 1), VARIANT_MEMORY_CACHE_BYTES: '0' } });
    try {
      const thumbs = await thumbnails(stack.baseUrl);
      const low = await probeVariants(stack.baseUrl, stack.mediaRoot, thumbs, 640);
      figures.push(
        figure(
          'free space below VARIANT_MIN_FREE_BYTES',
          `${low.asked - low.failed.length} of ${low.asked} answered 200, ${low.originals} the original, ${low.longCached} cached > 60 s`,
          'all served, from the original, cached briefly',
          low.failed.length === 0 && low.originals === low.asked && low.longCached === 0,
        ),
      );
    } finally {
      await stack.stop();
    }
  } finally {
    if (mounted) {
      await sleep(100);
      spawnSync('umount', [dir]);
    }
    rmSync(dir, { recursive: true, force: true });
  }
  return figures;
}

async function thumbnails(base: string): Promise<string[]> {
  const updates = (await (await fetch(`${base}/api/updates/1`)).json()) as { thumbnail: string }[];
  return updates.map((u) => u.thumbnail).slice(0, 12);
}
