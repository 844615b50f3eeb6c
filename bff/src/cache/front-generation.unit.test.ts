import { existsSync, mkdtempSync, readlinkSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { FrontGenerationLink, followFrontGeneration } from './front-generation';

const logger = pino({ level: 'silent' });
const dirs: string[] = [];
const fresh = () => {
  const dir = mkdtempSync(join(tmpdir(), 'front-gen-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the front-door generation link (what nginx keys its API cache on)', () => {
  it('points current at g<generation>, resolvable as nginx resolves it', () => {
    const dir = fresh();
    const link = new FrontGenerationLink(dir, logger);
    link.set(7);
    expect(readlinkSync(join(dir, 'current'))).toBe('g7');
    expect(realpathSync(join(dir, 'current'))).toBe(realpathSync(join(dir, 'g7')));
    expect(link.current()).toBe(7);
  });

  it('only moves forward: a replica that learns a generation late never moves it back', () => {
    const dir = fresh();
    const link = new FrontGenerationLink(dir, logger);
    link.set(9);
    new FrontGenerationLink(dir, logger).set(8);
    expect(link.current()).toBe(9);
    link.set(10);
    expect(link.current()).toBe(10);
  });

  it('drops folders well behind the current generation', () => {
    const dir = fresh();
    const link = new FrontGenerationLink(dir, logger);
    for (const g of [1, 2, 3, 4, 5]) link.set(g);
    expect(existsSync(join(dir, 'g1'))).toBe(false);
    expect(existsSync(join(dir, 'g2'))).toBe(false);
    expect(existsSync(join(dir, 'g4'))).toBe(true);
    expect(existsSync(join(dir, 'g5'))).toBe(true);
  });

  it('follows the cache: written at once for the current generation, then on every change, synchronously', () => {
    const dir = join(fresh(), 'nested');
    const listeners: Array<(g: number) => void> = [];
    const cache = { currentGeneration: 3 as number | undefined, onGenerationChange: (l: (g: number) => void) => listeners.push(l) };
    followFrontGeneration(cache, dir, logger);
    expect(readlinkSync(join(dir, 'current'))).toBe('g3');
    for (const l of listeners) l(4);
    expect(readlinkSync(join(dir, 'current'))).toBe('g4');
  });

  it('is off without a folder, and a folder it cannot write only logs', () => {
    const cache = { currentGeneration: 1, onGenerationChange: () => {} };
    expect(followFrontGeneration(cache, undefined, logger)).toBeUndefined();
    const file = join(fresh(), 'a-file');
    writeFileSync(file, '');
    expect(() => followFrontGeneration(cache, join(file, 'gen'), logger)).not.toThrow();
  });
});
