/**
 * A server for `npm run bench:media-send`, one sender per process:
 *   koa-send          koa-send alone, as its README shows it: `send(ctx, path, { root })`;
 *   koa-send-checked  the service's own checks (path rules, takedowns, access, realpath under the root,
 *                     RFC 9110 preconditions), then koa-send for the bytes: what using it would be;
 *   answer-checked    the same checks, then the service's sender (`answer`, src/files/send.ts).
 * Usage: tsx bench/media-send-server.ts <mode> <media root> <port>
 */
import { realpath } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname } from 'node:path';
import Koa from 'koa';
import type { Context } from 'koa';
import send from 'koa-send';
import mime from 'mime-types';
import { pino } from 'pino';
import { authorize } from '../../media-service/src/access/policy';
import { RevocationList } from '../../media-service/src/access/revocation';
import { TakedownList } from '../../media-service/src/access/takedowns';
import { parseKeyRing } from '@media-site/contracts/token';
import { AppError, errorMiddleware } from '../../media-service/src/errors';
import { evaluatePreconditions } from '../../media-service/src/files/conditional';
import { parseMediaPath, resolveMediaFile } from '@media-site/storage/paths';
import { answer, fileEtag, fileRepresentation } from '../../media-service/src/files/send';

const [mode = '', mediaRoot = '', port = ''] = process.argv.slice(2);
const PUBLIC_CACHE = 'public, max-age=86400, stale-while-revalidate=604800';
const realRoot = await realpath(mediaRoot);
const keys = parseKeyRing('bench:benchmark-only-secret-key');
const revocations = new RevocationList();
const takedowns = new TakedownList();

function checked(sender: 'koa-send' | 'answer') {
  return async (ctx: Context): Promise<void> => {
    const path = parseMediaPath(ctx.path);
    if (takedowns.isTakenDown(path)) throw new AppError('gone', 'This content has been removed');
    authorize(path, { sessionToken: undefined, query: {} }, keys, revocations, Date.now() / 1000);
    const file = await resolveMediaFile(realRoot, path);
    const type = mime.lookup(extname(file.absolute)) || 'application/octet-stream';
    if (sender === 'answer') {
      answer(ctx, fileRepresentation(file.absolute, file.stat, type), { cacheControl: PUBLIC_CACHE });
      return;
    }
    const etag = fileEtag(file.stat);
    const header = (name: string) => ctx.get(name) || undefined;
    const precondition = evaluatePreconditions(
      {
        ifMatch: header('If-Match'),
        ifUnmodifiedSince: header('If-Unmodified-Since'),
        ifNoneMatch: header('If-None-Match'),
        ifModifiedSince: header('If-Modified-Since'),
      },
      { etag, lastModified: Math.floor(file.stat.mtimeMs / 1000) },
    );
    if (precondition === 'failed') throw new AppError('precondition_failed', 'Precondition failed');
    ctx.set({ 'Accept-Ranges': 'bytes', ETag: etag, 'Cache-Control': PUBLIC_CACHE });
    if (precondition === 'not_modified') {
      ctx.status = 304;
      return;
    }
    // koa-send decodes the path it is given: hand it the real path below the root, re-encoded.
    const relative = file.absolute
      .slice(realRoot.length + 1)
      .split('/')
      .map(encodeURIComponent)
      .join('/');
    await send(ctx, relative, { root: realRoot, gzip: false, brotli: false, format: false });
  };
}

const app = new Koa();
app.silent = true;
if (mode === 'koa-send') {
  app.use(async (ctx) => {
    await send(ctx, ctx.path.slice('/members/'.length), { root: realRoot });
  });
} else if (mode === 'koa-send-checked' || mode === 'answer-checked') {
  app.use(errorMiddleware(pino({ level: 'silent' })));
  app.use(checked(mode === 'answer-checked' ? 'answer' : 'koa-send'));
} else {
  throw new Error(`unknown mode ${mode}`);
}
const server = createServer(app.callback());
server.keepAliveTimeout = 65_000;
server.listen(Number(port), '127.0.0.1');
