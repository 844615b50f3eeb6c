import type { IncomingMessage, RequestListener } from 'node:http';
import type Koa from 'koa';
import type { Context, Next } from 'koa';
import { commaList } from '@media-site/contracts/comma-list';
import { plainAddress, type AddressList } from './address-list';

/** The right-most X-Forwarded-For entry that is not a proxy we trust (earlier ones are the client's claims). */
function forwardedClient(forwardedFor: string | undefined, peer: string, trusted: AddressList): string {
  const hops = commaList(forwardedFor ?? '');
  // Walk back through proxies we trust (nginx in front of nginx, for example).
  for (let i = hops.length - 1; i >= 0; i -= 1) {
    const hop = plainAddress(hops[i] ?? '');
    if (!trusted.has(hop)) return hop;
  }
  return hops.length > 0 ? plainAddress(hops[0] ?? '') : peer;
}

/** Requests that arrived on BFF_FRONT_SOCKET, the front door's own Unix socket. */
const frontDoorRequests = new WeakSet<IncomingMessage>();
/**
 * A Unix socket peer has no address: it is a process of this host, and the client is in its
 * X-Forwarded-For (the front door always sends one).
 */
const THIS_HOST = '127.0.0.1';

/**
 * The listener for BFF_FRONT_SOCKET: whatever arrives there came through the front door, whose
 * X-Forwarded-For and X-Forwarded-Proto are believed. Only processes that may open the socket
 * (its folder's owner) reach it; anything on the TCP port is judged by TRUSTED_PROXIES alone.
 */
export function frontDoorListener(listener: RequestListener): RequestListener {
  return (req, res) => {
    frontDoorRequests.add(req);
    listener(req, res);
  };
}

/**
 * The one trusted-proxy rule. Koa's `app.proxy` believes X-Forwarded-* from any peer, so the first
 * middleware keeps them only from a peer in TRUSTED_PROXIES or on the front door's socket
 * (frontDoorListener): from there `ctx.ip` is the right-most X-Forwarded-For entry that is not
 * itself a trusted proxy, and `ctx.protocol`, `ctx.secure` (hence `Secure` cookies through
 * `ctx.cookies`) follow its X-Forwarded-Proto; from any other peer both headers are dropped and
 * the socket decides. X-Forwarded-Host is always dropped: the site is the Host header, which the
 * front door passes on.
 */
export function trustProxies(app: Koa, trusted: AddressList): void {
  app.proxy = true;
  app.use(async function forwardedFromTrustedProxiesOnly(ctx: Context, next: Next): Promise<void> {
    const headers = ctx.req.headers;
    const frontDoor = frontDoorRequests.has(ctx.req);
    const peer = frontDoor ? THIS_HOST : plainAddress(ctx.req.socket.remoteAddress ?? '');
    delete headers['x-forwarded-host'];
    if (frontDoor || trusted.has(peer)) {
      ctx.request.ip = forwardedClient(ctx.get('X-Forwarded-For'), peer, trusted);
    } else {
      delete headers['x-forwarded-for'];
      delete headers['x-forwarded-proto'];
      ctx.request.ip = peer;
    }
    await next();
  });
}
