import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createKnex } from '@media-site/db';
import { knexLog } from './logger';
import { captureSink } from './test/log-sink';

function capture() {
  const { sink, lines } = captureSink();
  return { logger: pino({ level: 'info', base: { service: 'bff' } }, sink), lines };
}

describe('knex messages', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('a refused database connection is one JSON line through the logger, nothing on the console', async () => {
    const console = vi.spyOn(globalThis.console, 'log');
    const { logger, lines } = capture();
    // Port 1 on loopback: nothing listens, the connection is refused at once.
    const knex = createKnex('mysql://u:p@127.0.0.1:1/none', { log: knexLog(logger), acquireTimeoutMs: 500 });
    try {
      await expect(knex.raw('select 1')).rejects.toThrow();
    } finally {
      await knex.destroy();
    }
    expect(console).not.toHaveBeenCalled();
    const warnings = lines().map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(warnings.length).toBeGreaterThan(0);
    for (const w of warnings) {
      expect(w).toMatchObject({ level: 40, service: 'bff', component: 'knex' });
      expect(String(w.msg)).toMatch(/^Acquire connection error: .*ECONNREFUSED/);
      expect(String(w.msg)).not.toContain('\n');
    }
  });
});
