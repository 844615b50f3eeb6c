import { afterAll, beforeAll, describe } from 'vitest';
import { testBackends, type Backend } from '@media-site/db/testing';

/**
 * Runs `define` once per test backend (MariaDB/MySQL when DATABASE_URL names one, SQLite always)
 * over a kit that `start` builds before the suite and that is closed after it; tests read it with `kit()`
 * (and may start more of their own on `backend`).
 */
export function describeWithKit<K extends { close(): Promise<void> }>(
  name: string,
  start: (backend: Backend) => Promise<K>,
  define: (kit: () => K, backend: Backend) => void,
): void {
  describe.each(testBackends())(`${name} (%s)`, (backend) => {
    let kit: K | undefined;
    beforeAll(async () => {
      kit = await start(backend);
    });
    afterAll(async () => {
      await kit?.close();
    });
    define(() => {
      if (!kit) throw new Error(`${name}: kit not started`);
      return kit;
    }, backend);
  });
}
