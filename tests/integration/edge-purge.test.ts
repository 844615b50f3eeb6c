import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signEdgeUrl } from '@media-site/contracts/edge-url';
import { signDownloadUrl } from '@media-site/contracts/token';
import { startNginx, type RunningNginx } from '../src/nginx';
import { startTempMedia } from '@media-site/media-service/testing';
import { keys, put, raw, TEST_KEYS, type MediaFixture } from './media-fixture';

// CDN-ready delivery: edge URLs in nginx's secure_link format, checked by the repo's nginx
// (the check a CDN runs at its edge) and again by the media service, beside the 48 h download links;
// and the purge hook (webhook and command) the media service calls when a takedown or a restore
// takes effect, retried when the receiver fails.
const SECRET = 'edge-test-secret-0123456789';
const DATA = Buffer.from(Array.from({ length: 50_000 }, (_, i) => (i * 7 + 3) % 256));
const FILE = 'video/clip-2/clip 2 été.mp4';
const PREFIX = 'video/clip-2/';

interface Received {
  event: string;
  prefixes: string[];
  urls: string[];
}

/** The bff's lists (takedowns changeable) and a purge receiver that fails its first call. */
class Outside {
  prefixes: string[] = [];
  purges: Received[] = [];
  purgeCalls = 0;
  private server: Server | undefined;
  url = '';

  async listen(): Promise<void> {
    this.server = createServer((req, res) => {
      if (req.url === '/internal/media-takedowns') {
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ prefixes: this.prefixes }));
      } else if (req.url === '/internal/media-revocations') {
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"members":[]}');
      } else if (req.url === '/purge' && req.method === 'POST') {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString()));
        req.on('end', () => {
          this.purgeCalls += 1;
          // The first delivery fails: the hook must retry.
          if (this.purgeCalls === 1) {
            res.writeHead(503).end();
          } else {
            this.purges.push(JSON.parse(body) as Received);
            res.writeHead(204).end();
          }
        });
      } else {
        res.writeHead(404).end();
      }
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    this.server?.closeAllConnections();
    return new Promise((r) => (this.server ? this.server.close(() => r()) : r()));
  }
}

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 150; i += 1) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** The token as an operator's shell (or a CDN rule) computes it: openssl, not this repo's code. */
// Edge URLs name their member and mint time: member 7, minted now.
const MEMBER = 7;
const IAT = Math.floor(Date.now() / 1000);

function opensslToken(expires: number, uri: string): string {
  return execFileSync('/bin/sh', [
    '-c',
    'printf "%s" "$1" | openssl md5 -binary | openssl base64 | tr "+/" "-_" | tr -d "="',
    'token',
    `${expires}${uri} ${MEMBER} ${IAT} ${SECRET}`,
  ])
    .toString()
    .trim();
}

describe('edge URLs and the purge hook', () => {
  const outside = new Outside();
  let fx: MediaFixture;
  let nginx: RunningNginx;
  let work: string;
  const logLines: string[] = [];
  const expires = Math.floor(Date.now() / 1000) + 3600;

  beforeAll(async () => {
    await outside.listen();
    work = await mkdtemp(join(tmpdir(), 'edge-purge-'));
    await writeFile(join(work, 'index.html'), '<!doctype html><title>spa</title>');
    const logger = pino({ level: 'info' }, new Writable({ write: (chunk: Buffer, _e, done) => (logLines.push(chunk.toString()), done()) }));
    fx = await startTempMedia(
      {
        MEDIA_TOKEN_KEYS: TEST_KEYS,
        MEDIA_OFFLOAD: 'nginx',
        EDGE_URL_SECRET: SECRET,
        MEDIA_REVOCATION_URL: `${outside.url}/internal/media-revocations`,
        MEDIA_TAKEDOWN_INTERVAL_S: '1',
        PURGE_WEBHOOK_URL: `${outside.url}/purge`,
        PURGE_COMMAND: `printf '%s\\n' "$PURGE_EVENT" "$@" >> '${join(work, 'purged.txt')}'`,
      },
      { logger },
    );
    await put(fx.root, FILE, DATA);
    nginx = await startNginx({
      bffUrl: 'http://127.0.0.1:9',
      mediaUrl: fx.media.url,
      spaDir: work,
      mediaRoot: fx.root,
      vars: { EDGE_URL_SECRET: SECRET },
    });
    await until('the media service to load its lists', async () =>
      (await raw(fx.media.url, '/readyz')).status === 200 ? true : undefined,
    );
  });
  afterAll(async () => {
    await nginx?.stop();
    await fx?.stop();
    await outside.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('signs in the secure_link format: the token openssl computes is the one the code signs', () => {
    const url = signEdgeUrl(SECRET, { path: `/members/${FILE}`, expiresAt: expires, memberId: MEMBER, issuedAt: IAT });
    expect(url).toBe(
      `/edge/members/video/clip-2/clip%202%20%C3%A9t%C3%A9.mp4?md5=${opensslToken(expires, `/edge/members/${FILE}`)}&expires=${expires}&mid=${MEMBER}&iat=${IAT}`,
    );
  });

  it('nginx (secure_link) and the media service both accept it; a bad or expired token is refused at the edge', async () => {
    const url = signEdgeUrl(SECRET, { path: FILE, expiresAt: expires, memberId: MEMBER, issuedAt: IAT });
    const res = await raw(nginx.url, url);
    expect(res.status).toBe(200);
    expect(res.body.equals(DATA)).toBe(true);
    expect(res.headers['cache-control']).toBe('public, max-age=300, s-maxage=3600');
    const part = await raw(nginx.url, url, { Range: 'bytes=100-199' });
    expect(part.status).toBe(206);
    expect(part.body.equals(DATA.subarray(100, 200))).toBe(true);

    const forged = url.replace(/md5=[^&]+/, `md5=${opensslToken(expires + 1, `/edge/members/${FILE}`)}`);
    const atEdge = await raw(nginx.url, forged);
    expect(atEdge.status).toBe(403);
    expect(JSON.parse(atEdge.body.toString()).error.code).toBe('forbidden');
    // The origin checks the same token: a request that bypassed the edge is refused too.
    expect((await raw(fx.media.url, forged)).status).toBe(403);
    expect((await raw(fx.media.url, url)).status).toBe(200);

    const past = Math.floor(Date.now() / 1000) - 10;
    const expired = signEdgeUrl(SECRET, { path: FILE, expiresAt: past, memberId: MEMBER, issuedAt: IAT });
    const late = await raw(nginx.url, expired);
    expect(late.status).toBe(403);
    expect(JSON.parse(late.body.toString()).error.code).toBe('token_expired');
    expect(JSON.parse((await raw(fx.media.url, expired)).body.toString()).error.code).toBe('token_expired');
    // Another file with this file's token.
    expect(await raw(nginx.url, url.replace('clip%202', 'clip%203')).then((r) => r.status)).toBe(403);
    // The member and the mint time are under the token at the edge too: neither can be
    // moved past a valid-from time, nor dropped to make the old member-less form.
    for (const altered of [
      url.replace(`iat=${IAT}`, `iat=${IAT + 60}`),
      url.replace(`mid=${MEMBER}`, 'mid=8'),
      url.replace(/&mid=.*$/, ''),
    ]) {
      expect((await raw(nginx.url, altered)).status, altered).toBe(403);
    }
  });

  it('keeps the 48 h signed download links working beside them', async () => {
    const link = signDownloadUrl(keys, { path: FILE, memberId: 7, expiresAt: Math.floor(Date.now() / 1000) + 48 * 3600 });
    const res = await raw(nginx.url, link);
    expect(res.status).toBe(200);
    expect(res.body.equals(DATA)).toBe(true);
    expect(res.headers['cache-control']).toBe('private, no-cache');
  });

  it('calls the purge webhook (retried after a failure) and the purge command on takedown and restore', async () => {
    const url = signEdgeUrl(SECRET, { path: FILE, expiresAt: expires, memberId: MEMBER, issuedAt: IAT });
    outside.prefixes = [PREFIX];
    const takedown = await until('the takedown purge', () => outside.purges.find((p) => p.event === 'takedown'));
    // Called once the change took effect here: the edge URL already answers 410 at the origin.
    expect((await raw(nginx.url, url)).status).toBe(410);
    expect(takedown).toEqual({ event: 'takedown', prefixes: [PREFIX], urls: ['/members/video/clip-2/', '/edge/members/video/clip-2/'] });
    expect(outside.purgeCalls).toBe(2);

    outside.prefixes = [];
    const restore = await until('the restore purge', () => outside.purges.find((p) => p.event === 'restore'));
    expect(restore.urls).toEqual(takedown.urls);
    expect((await raw(nginx.url, url)).status).toBe(200);

    const purged = await until('the purge command', async () => {
      const text = await readFile(join(work, 'purged.txt'), 'utf8').catch(() => '');
      return text.includes('restore') ? text : undefined;
    });
    const logged = logLines.map((l) => JSON.parse(l) as { msg: string; purge?: string; event?: string; attempt?: number });
    expect(logged.filter((l) => l.purge === 'webhook').map((l) => `${l.event} ${l.attempt} ${l.msg}`)).toEqual([
      'takedown 1 purge webhook failed; retrying',
      'takedown 2 purge webhook done',
      'restore 1 purge webhook done',
    ]);
    expect(purged.trim().split('\n')).toEqual([
      'takedown',
      '/members/video/clip-2/',
      '/edge/members/video/clip-2/',
      'restore',
      '/members/video/clip-2/',
      '/edge/members/video/clip-2/',
    ]);
  });
});
