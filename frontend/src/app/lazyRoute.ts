import { lazy } from 'react';
import type { ComponentType } from 'react';

// Spec §9: a code chunk that has not arrived after 120 s counts as failed.
export const CHUNK_TIMEOUT_MS = 120_000;

export class ChunkLoadError extends Error {
  constructor(cause: unknown) {
    super('A part of the site could not be loaded.', { cause });
    this.name = 'ChunkLoadError';
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`chunk load timed out after ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

// One retry covers a dropped connection or a deploy that replaced the chunk mid-visit; a second
// failure reaches the route's error boundary, which offers a reload.
export async function loadChunk<T>(importer: () => Promise<T>, timeoutMs = CHUNK_TIMEOUT_MS): Promise<T> {
  try {
    return await withTimeout(importer(), timeoutMs);
  } catch {
    try {
      return await withTimeout(importer(), timeoutMs);
    } catch (error) {
      throw new ChunkLoadError(error);
    }
  }
}

export function lazyRoute<M, K extends keyof M>(importer: () => Promise<M>, name: K) {
  return lazy(async () => {
    const module = await loadChunk(importer);
    return { default: module[name] as ComponentType };
  });
}
