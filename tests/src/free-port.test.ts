import { describe, expect, it } from 'vitest';
import { freePort } from '../../scripts/lib/process';

describe('freePort', () => {
  it('never hands out a port twice in one process, and picks below the ephemeral range', async () => {
    const ports: number[] = [];
    for (let i = 0; i < 200; i++) ports.push(await freePort());
    expect(new Set(ports).size).toBe(ports.length);
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(20_000);
      expect(port).toBeLessThan(32_768);
    }
  });
});
