import { describe, expect, it, vi } from 'vitest';
import { GenerationIndex, TooManyRows } from './generation-index';

/** A build per call whose completion the test controls. */
function controlledBuilds() {
  const builds: Array<{ resolve: (value: string) => void; reject: (err: Error) => void }> = [];
  const build = () =>
    new Promise<string>((resolve, reject) => {
      builds.push({ resolve, reject });
    });
  return { builds, build };
}

describe('GenerationIndex', () => {
  it('builds lazily on the first ask, once, and answers nothing until built', async () => {
    const { builds, build } = controlledBuilds();
    const index = new GenerationIndex({ build });
    expect(index.status.state).toBe('empty');
    expect(index.current(1)).toBeUndefined();
    expect(index.current(1)).toBeUndefined();
    expect(builds).toHaveLength(1);
    expect(index.status).toEqual({ state: 'building', generation: 1 });
    builds[0]!.resolve('g1');
    await index.settled();
    expect(index.current(1)).toBe('g1');
    expect(index.status.state).toBe('ready');
  });

  it('never answers from an older generation, and drops a build the catalog moved past', async () => {
    const { builds, build } = controlledBuilds();
    const index = new GenerationIndex({ build });
    index.current(1);
    builds[0]!.resolve('g1');
    await index.settled();
    expect(index.current(2)).toBeUndefined();
    expect(builds).toHaveLength(2);
    // Generation 3 arrives while 2 builds: one build at a time, and 2's result is not kept.
    expect(index.current(3)).toBeUndefined();
    expect(builds).toHaveLength(2);
    // 2's build ends: its result is dropped and 3's build starts without waiting for another ask.
    builds[1]!.resolve('g2');
    await vi.waitFor(() => expect(builds).toHaveLength(3));
    expect(index.status).toEqual({ state: 'building', generation: 3 });
    expect(index.current(3)).toBeUndefined();
    expect(builds).toHaveLength(3);
    builds[2]!.resolve('g3');
    await index.settled();
    expect(index.current(3)).toBe('g3');
  });

  it('keeps a too-large generation on the fallback without rebuilding it', async () => {
    const { builds, build } = controlledBuilds();
    const index = new GenerationIndex({ build });
    index.current(1);
    builds[0]!.reject(new TooManyRows('too many'));
    await index.settled();
    expect(index.current(1)).toBeUndefined();
    expect(builds).toHaveLength(1);
    expect(index.status).toEqual({ state: 'too large', generation: 1 });
    // A later generation may fit again.
    index.current(2);
    expect(builds).toHaveLength(2);
  });

  it('retries a failed build after retryMs', async () => {
    const { builds, build } = controlledBuilds();
    const index = new GenerationIndex({ build, retryMs: 60_000 });
    index.current(1);
    builds[0]!.reject(new Error('database down'));
    await index.settled();
    expect(index.current(1)).toBeUndefined();
    expect(builds).toHaveLength(1);
    expect(index.status.state).toBe('failed');

    const eager = new GenerationIndex({ build, retryMs: 0 });
    eager.current(1);
    builds[1]!.reject(new Error('database down'));
    await eager.settled();
    eager.current(1);
    expect(builds).toHaveLength(3);
  });
});
