import { describe, expect, it } from 'vitest';
import { startOutput } from '../../scripts/lib/start-output';

// npm start's output policy (scripts/lib/start-output.ts); tests/integration/start.test.ts runs the real thing.
function capture() {
  const out: string[] = [];
  const err: string[] = [];
  const output = startOutput(
    ['encoder'],
    (line) => out.push(line),
    (line) => err.push(line),
  );
  return { out, err, output };
}
const pino = (level: number, msg: string, time = Date.now()) => JSON.stringify({ level, time, msg });

describe("npm start's output", () => {
  it('holds routine lines while starting, shows warnings, errors and the encoder at once, and a line per ready part', () => {
    const { out, err, output } = capture();
    output.onLine('media', pino(30, 'GET /readyz 503'));
    output.onLine('media', pino(30, 'revocation list not loaded yet'));
    output.onLine('bff', pino(40, 'redis unavailable; serving from the database'));
    output.onLine('bff', pino(50, 'mail outbox pass failed'));
    output.onLine('nginx', '2026/01/01 10:00:00 [warn] 12#12: something odd');
    output.onLine('encoder', 'cannot encode: ffmpeg / ffprobe do not run');
    output.onReady('bff', 'at http://127.0.0.1:3001');
    expect(out).toEqual([
      expect.stringMatching(/^\[bff\] .*redis unavailable/),
      '[nginx] 2026/01/01 10:00:00 [warn] 12#12: something odd',
      '[encoder] cannot encode: ffmpeg / ffprobe do not run',
      'bff ready at http://127.0.0.1:3001',
    ]);
    expect(err).toEqual([expect.stringMatching(/^\[bff\] .*mail outbox pass failed/)]);
  });

  it('once live, shows every line but the routine ones written before (read late through a pipe)', () => {
    const { out, output } = capture();
    output.onLine('bff', pino(30, 'held while starting'));
    output.live();
    output.onLine('bff', pino(30, 'bff listening', Date.now() - 5000));
    output.onLine('bff', pino(30, 'GET /api/updates/1 200', Date.now() + 1));
    output.onLine('provider', '{"level":30,"msg":"no time field"}');
    expect(out).toEqual([expect.stringMatching(/GET \/api\/updates\/1 200/), '[provider] {"level":30,"msg":"no time field"}']);
  });

  it('on a failed start prints what was held apart from routine JSON: the reason, not the chatter', () => {
    const { err, output } = capture();
    output.onLine('media', pino(30, 'GET /readyz 503'));
    output.onLine('bff', 'invalid bff configuration:');
    output.onLine('bff', '  CACHE_TTL_SECONDS: Invalid input: expected number, received NaN');
    output.failed();
    expect(err).toEqual(['[bff] invalid bff configuration:', '[bff]   CACHE_TTL_SECONDS: Invalid input: expected number, received NaN']);
  });
});
