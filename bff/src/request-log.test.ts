import Koa from 'koa';
import { pino } from 'pino';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createAccessLog } from './access-log';
import { requestLog } from './request-log';
import { captureSink } from './test/log-sink';

function appLoggingAt(level: string) {
  const { sink, lines: written } = captureSink();
  const accessLog = createAccessLog(pino({ level }, sink));
  const app = new Koa();
  app.use(requestLog(accessLog));
  app.use((ctx) => {
    ctx.status = ctx.path === '/readyz' && ctx.query.down !== undefined ? 503 : 200;
    ctx.body = {};
  });
  const lines = () => {
    accessLog.flush();
    return written().map((l) => JSON.parse(l) as { level: number; url: string });
  };
  return { app, lines };
}

describe('request log', () => {
  it('logs health probes that pass at debug, everything else at info', async () => {
    const info = appLoggingAt('info');
    for (const path of ['/healthz', '/readyz', '/readyz?down', '/api/updates/1']) await request(info.app.callback()).get(path);
    expect(info.lines().map((l) => [l.url, l.level])).toEqual([
      ['/readyz?down', 30],
      ['/api/updates/1', 30],
    ]);

    const debug = appLoggingAt('debug');
    for (const path of ['/healthz', '/readyz']) await request(debug.app.callback()).get(path);
    expect(debug.lines().map((l) => [l.url, l.level])).toEqual([
      ['/healthz', 20],
      ['/readyz', 20],
    ]);
  });
});
