import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createAccessLog } from './access-log';
import { captureSink } from './test/log-sink';

function capture(level: string) {
  const captured = captureSink();
  return { logger: pino({ level, base: { service: 'bff' } }, captured.sink), ...captured };
}

describe('access log', () => {
  it('writes the same JSON line pino would, keys in the same order, batched or not', () => {
    for (const batched of [true, false]) {
      for (const child of [undefined, { instance: 'a' }]) {
        const { logger: root, sink, lines } = capture('info');
        const logger = child ? root.child(child) : root;
        logger.info({ reqId: 'r1', method: 'GET', url: '/api/photos/1', status: 200, ms: 1.5 }, 'request');
        const log = createAccessLog(logger, { destination: batched ? sink : undefined });
        log.line('r1', 'GET', '/api/photos/1', 200, performance.now());
        log.flush();
        const [ours, theirs] = [JSON.parse(lines()[1]!) as Record<string, unknown>, JSON.parse(lines()[0]!) as Record<string, unknown>];
        expect(Object.keys(ours)).toEqual(Object.keys(theirs));
        expect({ ...ours, time: 0, ms: 0 }).toEqual({ ...theirs, time: 0, ms: 0 });
        expect(typeof ours.time).toBe('number');
      }
    }
  });

  it('escapes what the client sent, so a URL cannot forge a line', () => {
    const { logger, sink, lines } = capture('info');
    const log = createAccessLog(logger, { destination: sink });
    log.line('r2', 'GET', '/x?a="b"\n{"msg":"forged"}\\', 404, performance.now());
    log.flush();
    expect(lines()).toHaveLength(1);
    expect((JSON.parse(lines()[0]!) as { url: string }).url).toBe('/x?a="b"\n{"msg":"forged"}\\');
  });

  it('batches lines into few writes and writes nothing above level info', () => {
    const { logger, sink, chunks, lines } = capture('info');
    const log = createAccessLog(logger, { destination: sink });
    for (let i = 0; i < 500; i++) log.line(`r${i}`, 'GET', '/api/videos/1', 200, performance.now());
    expect(chunks.length).toBeGreaterThan(0);
    expect(chunks.length).toBeLessThan(10);
    log.flush();
    expect(lines()).toHaveLength(500);

    const quiet = capture('warn');
    const none = createAccessLog(quiet.logger, { destination: quiet.sink });
    none.line('r', 'GET', '/', 200, performance.now());
    none.flush();
    expect(quiet.chunks).toHaveLength(0);
  });

  it('writes a debug line with the debug level number, only when debug is on', () => {
    for (const batched of [true, false]) {
      const info = capture('info');
      const debug = capture('debug');
      for (const c of [info, debug]) {
        const log = createAccessLog(c.logger, { destination: batched ? c.sink : undefined });
        log.line('r4', 'GET', '/healthz', 200, performance.now(), 'debug');
        log.flush();
      }
      expect(info.lines()).toHaveLength(0);
      expect((JSON.parse(debug.lines()[0]!) as { level: number }).level).toBe(20);
    }
  });

  it('flushes on its own within the interval', async () => {
    const { logger, sink, lines } = capture('info');
    const log = createAccessLog(logger, { destination: sink, flushEveryMs: 20 });
    log.line('r3', 'GET', '/', 200, performance.now());
    expect(lines()).toHaveLength(0);
    await new Promise((r) => setTimeout(r, 60));
    expect(lines()).toHaveLength(1);
  });
});
