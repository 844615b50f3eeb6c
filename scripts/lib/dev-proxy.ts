import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, request, type IncomingMessage, type RequestOptions, type Server, type ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';

// The front door when nginx is not installed: the same routes as nginx/ (SPA with index.html
// fallback, /api -> bff, /members -> media service), without nginx's offload or hardening.

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

export interface DevProxyOptions {
  port: number;
  host?: string;
  /** `http://host:port`, or `unix:/path`: the bff's BFF_FRONT_SOCKET, as `npm start` wires it. */
  bffUrl: string;
  mediaUrl: string;
  spaDir: string;
  /** The bff's WEBHOOK_PROXY_SECRET: added on the webhook path, as nginx's webhook location does. */
  webhookProxySecret?: string;
}

const WEBHOOK_PATH = /^\/api\/+ccbill\/+webhook/i;

/** Where a request to `target` (`http://host:port` or `unix:/path`) goes, with the path as nginx would pass it. */
function upstreamOf(target: string, requestUrl: string): RequestOptions {
  const url = new URL(requestUrl, target.startsWith('unix:') ? 'http://front-door' : target);
  const path = url.pathname + url.search;
  if (target.startsWith('unix:')) return { socketPath: target.slice('unix:'.length), path };
  return { hostname: url.hostname.replace(/^\[|\]$/g, ''), port: url.port, path };
}

function proxy(req: IncomingMessage, res: ServerResponse, target: string, extra: Record<string, string> = {}): void {
  // A client's own copy of the webhook secret header never passes; the webhook path gets the real one.
  const { 'x-webhook-proxy-secret': _clientCopy, ...headers } = req.headers;
  const upstream = request(
    {
      ...upstreamOf(target, req.url ?? '/'),
      method: req.method,
      // The browser's Host (the bff compares it with Origin) and this hop's plain-http scheme.
      headers: { ...headers, 'x-forwarded-for': req.socket.remoteAddress ?? '', 'x-forwarded-proto': 'http', ...extra },
    },
    (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    },
  );
  upstream.on('error', () => {
    if (!res.headersSent) {
      res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 'bad_gateway', message: 'Upstream unavailable' } }));
    } else {
      res.destroy();
    }
  });
  req.pipe(upstream);
}

/** The operator console's page (ADMIN_ALLOWED_IPS is nginx's only: this proxy lets everyone in). */
const CONSOLE_PATH = /^\/admin(?:\/|$)/;

const HOME_PRELOADS = '</api/updates/1>; rel=preload; as=fetch; crossorigin, </api/freephotos/1>; rel=preload; as=fetch; crossorigin';

async function serveSpa(req: IncomingMessage, res: ServerResponse, spaDir: string): Promise<void> {
  const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
  const candidate = normalize(join(spaDir, pathname));
  // As nginx: /admin and everything under it is the operator console's page.
  let file = join(spaDir, CONSOLE_PATH.test(pathname) ? 'admin.html' : 'index.html');
  if (!CONSOLE_PATH.test(pathname) && candidate.startsWith(spaDir + sep)) {
    const info = await stat(candidate).catch(() => undefined);
    if (info?.isFile()) file = candidate;
  }
  const isAsset = pathname.startsWith('/assets/') && file === candidate;
  res.writeHead(200, {
    'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
    'cache-control': isAsset ? 'public, max-age=31536000, immutable' : 'no-cache',
    'x-content-type-options': 'nosniff',
    // As nginx's `location = /`: home's first answers leave with the HTML's own requests.
    ...(pathname === '/' ? { link: HOME_PRELOADS } : {}),
  });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  createReadStream(file)
    .on('error', () => res.destroy())
    .pipe(res);
}

export async function startDevProxy(options: DevProxyOptions): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    if (path === '/api' || path.startsWith('/api/')) {
      const secret: Record<string, string> =
        options.webhookProxySecret && WEBHOOK_PATH.test(path) ? { 'x-webhook-proxy-secret': options.webhookProxySecret } : {};
      return proxy(req, res, options.bffUrl, secret);
    }
    if (path.startsWith('/members/')) return proxy(req, res, options.mediaUrl);
    serveSpa(req, res, options.spaDir).catch(() => {
      res.statusCode = 500;
      res.end();
    });
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, resolve);
  });
  return {
    url: `http://${host}:${options.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
