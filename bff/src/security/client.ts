import type { Context } from 'koa';
import { plainAddress, type AddressList } from './address-list';

/**
 * The caller's address: the socket peer, or — only when that peer is a trusted proxy — the last
 * X-Forwarded-For entry it appended (earlier entries are whatever the client claimed).
 */
export function clientAddress(ctx: Context, trustedProxies: AddressList): string {
  const peer = plainAddress(ctx.req.socket.remoteAddress ?? '');
  if (!trustedProxies.has(peer)) return peer;
  const hops = (ctx.get('X-Forwarded-For') || '').split(',').map((h) => h.trim()).filter(Boolean);
  // Walk back through proxies we trust (nginx in front of nginx, for example).
  for (let i = hops.length - 1; i >= 0; i -= 1) {
    const hop = plainAddress(hops[i] ?? '');
    if (!trustedProxies.has(hop)) return hop;
  }
  return hops.length > 0 ? plainAddress(hops[0] ?? '') : peer;
}

/** https on our own socket, or reported by a trusted proxy: then cookies get `Secure`. */
export function isHttps(ctx: Context, trustedProxies: AddressList): boolean {
  if ((ctx.req.socket as { encrypted?: boolean }).encrypted) return true;
  const peer = plainAddress(ctx.req.socket.remoteAddress ?? '');
  return trustedProxies.has(peer) && ctx.get('X-Forwarded-Proto').split(',')[0]?.trim() === 'https';
}
