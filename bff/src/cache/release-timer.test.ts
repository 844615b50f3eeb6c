import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { schedule } from '@media-site/db/content';
import { testBackends, useTestDb } from '@media-site/db/testing';
import { insertCatalog, type Catalog } from '../test/fixtures';
import { silentLogger } from '../test/harness';
import { ReleaseTimer } from './release-timer';

const until = async (check: () => boolean) => {
  const since = Date.now();
  while (!check() && Date.now() - since < 5000) await new Promise((r) => setTimeout(r, 10));
  expect(check()).toBe(true);
};

describe.each(testBackends())('the release timer (%s)', (backend) => {
  const db = useTestDb(backend);
  let catalog: Catalog;
  const timers: ReleaseTimer[] = [];
  beforeAll(async () => {
    catalog = await insertCatalog(db.knex);
  });
  afterEach(() => {
    for (const t of timers.splice(0)) t.stop();
    vi.restoreAllMocks();
  });

  function started() {
    const releases: number[] = [];
    const listeners: Array<(g: number) => void> = [];
    const source = {
      releaseDue: async (now: number) => {
        releases.push(now);
        return undefined;
      },
      onGenerationChange: (l: (g: number) => void) => listeners.push(l),
    };
    const timer = new ReleaseTimer(db.knex, source, silentLogger);
    timers.push(timer);
    timer.start();
    return { releases, changed: () => listeners.forEach((l) => l(0)) };
  }

  it('never asks setTimeout for more than 2^31-1 ms, however far the next release is', async () => {
    const delays: number[] = [];
    const real = globalThis.setTimeout;
    vi.spyOn(globalThis, 'setTimeout').mockImplementation(((fn: () => void, ms?: number) => {
      delays.push(ms ?? 0);
      return real(fn, Math.min(ms ?? 0, 50));
    }) as typeof setTimeout);
    await schedule(db.knex, { type: 'video', path: catalog.videos[0]!.path }, Date.now() + 60 * 86_400_000);
    started();
    await until(() => delays.includes(2 ** 31 - 1));
    expect(Math.max(...delays)).toBe(2 ** 31 - 1);
    vi.restoreAllMocks();
    await schedule(db.knex, { type: 'video', path: catalog.videos[0]!.path }, null);
  });

  it('fires at once for a release already due, and re-arms when the generation changes', async () => {
    const { releases, changed } = started();
    await new Promise((r) => setTimeout(r, 100));
    expect(releases).toEqual([]);
    const at = Date.now() + 200;
    await schedule(db.knex, { type: 'photoset', path: catalog.photos[0]!.path }, at);
    changed();
    await until(() => releases.length > 0);
    expect(releases[0]!).toBeGreaterThanOrEqual(at);
    expect(releases[0]! - at).toBeLessThan(500);
    // This source never moves released_through, so the release stays due: at most one fire per 25 ms, no spin.
    await new Promise((r) => setTimeout(r, 500));
    expect(releases.length).toBeLessThanOrEqual(500 / 25 + 2);
  });
});
