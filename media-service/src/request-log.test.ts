import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixture, type Fixture } from './test/helpers';

describe('request log', () => {
  const chunks: string[] = [];
  let fx: Fixture;
  beforeAll(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        chunks.push(String(chunk));
        done();
      },
    });
    fx = await startFixture({}, { logger: pino({ level: 'debug' }, sink) });
  });
  afterAll(async () => {
    await fx?.stop();
  });

  it('logs health probes that pass at debug, other requests at info', async () => {
    for (const path of ['/healthz', '/readyz', '/members/freephotos/set-1/free.jpg'])
      await fetch(`${fx.media.url}${path}`).then((r) => r.arrayBuffer());
    const requests = chunks
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { level: number; msg: string; path?: string })
      .filter((l) => l.msg === 'request');
    expect(requests.map((l) => [l.path, l.level])).toEqual([
      ['/healthz', 20],
      ['/readyz', 20],
      ['/members/freephotos/set-1/free.jpg', 30],
    ]);
  });
});
