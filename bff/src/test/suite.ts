import { afterAll, beforeAll, describe } from 'vitest';
import { testBackends, type Backend } from '@media-site/db/testing';

/** Starts a kit before the enclosing suite and closes it after; the returned getter reads it inside tests. */
export function useKit<K extends { close(): Promise<void> }>(start: () => Promise<K>): () => K {
  let kit: K | undefined;
  beforeAll(async () => {
    kit = await start();
  });
  afterAll(async () => {
    await kit?.close();
  });
  return () => {
    if (!kit) throw new Error('kit not started');
    return kit;
  };
}

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
    define(
      useKit(() => start(backend)),
      backend,
    );
  });
}
