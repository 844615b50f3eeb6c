import { mkdtempSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testRedisUrl } from '@media-site/db/testing';
import { runOpsCaptured } from '@media-site/ops/cli';
import { raw } from '@media-site/media-service/testing/http';
import { loadFollowerConfig } from '@media-site/front-follower/config';
import { startFollower, type Follower } from '@media-site/front-follower/follow';
import { createFollowerMetrics } from '@media-site/front-follower/metrics';
import { repoRoot } from '../../scripts/lib/site';
import { startNginx, type RunningNginx } from '../src/nginx';
import { startStack, type Stack } from '../src/stack';

// Every nginx host sees a catalog change without a shared folder. Two more nginx
// instances beside the stack's, each keyed on a folder of its own that only its follower
// (front-follower/) writes: one follows the Redis announcement, the other the database
// poll alone (Redis away). A takedown must leave both caches unreachable under the old generation.
// No timing assertions: the figure is printed; the polls only have generous caps.
const CAP_MS = 20_000;
const POLL_MS = 500;
// Without Redis (and without REQUIRE_SERVICES=1, which makes a missing REDIS_URL an error) this file is skipped.
const redisUrl = testRedisUrl();
const prefix = `follow-${process.pid}-${Date.now()}:`;

let stack: Stack;
const hosts: Array<{ name: string; dir: string; nginx: RunningNginx; follower: Follower }> = [];

beforeAll(async () => {
  if (!redisUrl) return;
  stack = await startStack({ frontDoor: 'nginx', redisUrl, env: { CACHE_KEY_PREFIX: prefix } });
  for (const [name, redis] of [
    ['redis', redisUrl],
    ['poll only', undefined],
  ] as const) {
    const dir = mkdtempSync(join(tmpdir(), 'front-gen-'));
    const follower = await startFollower(
      loadFollowerConfig({
        DATABASE_URL: stack.databaseUrl,
        REDIS_URL: redis,
        CACHE_KEY_PREFIX: prefix,
        FRONT_GENERATION_DIR: dir,
        FOLLOW_POLL_MS: String(POLL_MS),
      }),
      pino({ level: 'silent' }),
    );
    const nginx = await startNginx({
      bffUrl: stack.bffUrl,
      mediaUrl: stack.mediaUrl,
      spaDir: join(repoRoot, 'frontend/dist'),
      mediaRoot: stack.mediaRoot,
      catalogGenerationDir: dir,
      accessLog: 'off',
    });
    hosts.push({ name, dir, nginx, follower });
  }
}, 300_000);

afterAll(async () => {
  for (const host of hosts) {
    await host.nginx.stop();
    await host.follower.close();
    rmSync(host.dir, { recursive: true, force: true });
  }
  await stack?.stop();
});

const link = (dir: string) => readlinkSync(join(dir, 'current'));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ops = (...argv: string[]) =>
  runOpsCaptured(argv, {
    env: { DATABASE_URL: stack.databaseUrl, MEDIA_ROOT: stack.mediaRoot, REDIS_URL: redisUrl, CACHE_KEY_PREFIX: prefix },
  });

describe.runIf(redisUrl)('nginx hosts with folders of their own', () => {
  it('start on the current generation, each written by its own follower', async () => {
    const current = link(stack.catalogGenerationDir ?? '');
    for (const host of hosts) expect(link(host.dir), host.name).toBe(current);
  });

  it('report the generation they follow, and their Redis, on /metrics', async () => {
    const generation = Number(/^g(\d+)$/.exec(link(stack.catalogGenerationDir ?? ''))?.[1]);
    for (const host of hosts) {
      const text = await createFollowerMetrics(host.follower).metrics();
      expect(text, host.name).toMatch(new RegExp(`^follower_generation ${generation}$`, 'm'));
      expect(text, host.name).toContain('follower_process_cpu_seconds_total');
      // Without REDIS_URL there is no Redis to report.
      if (host.name === 'redis') expect(text).toMatch(/^follower_redis_up 1$/m);
      else expect(text).not.toMatch(/^follower_redis_up /m);
    }
  });

  it('drop a taken-down item from their caches: the Redis follower at once, the polling one within its poll', async () => {
    const listing = '/api/photos/1';
    const first = JSON.parse((await raw(hosts[0]!.nginx.url, listing)).body.toString()) as Array<{ path: string }>;
    const photoset = first[0]!.path;
    for (const host of hosts) {
      await raw(host.nginx.url, listing);
      const hit = await raw(host.nginx.url, listing);
      expect(hit.headers['x-cache-status'], host.name).toBe('HIT');
    }
    const started = Date.now();
    const down = await ops('takedown', `/photos/${photoset}`, '--by', 'test', '--reason', 'follower test');
    expect(down.code, down.err).toBe(0);
    const generation = /catalog generation (\d+)/.exec(down.out)?.[1];
    expect(generation).toBeDefined();
    const reached = new Map<string, number>();
    while (reached.size < hosts.length && Date.now() - started < CAP_MS) {
      for (const host of hosts)
        if (!reached.has(host.name) && link(host.dir) === `g${generation}`) reached.set(host.name, Date.now() - started);
      await sleep(5);
    }
    console.info(`generation link moved after the takedown: ${[...reached].map(([name, ms]) => `${name} ${ms} ms`).join(', ')}`);
    expect([...reached.keys()].sort()).toEqual(hosts.map((h) => h.name).sort());
    // Once moved, no host answers from an entry of the old generation.
    for (const host of hosts) {
      await expect
        .poll(async () => (await raw(host.nginx.url, listing)).body.toString().includes(`"${photoset}"`), { timeout: CAP_MS })
        .toBe(false);
      for (let i = 0; i < 10; i += 1) expect((await raw(host.nginx.url, listing)).body.toString()).not.toContain(`"${photoset}"`);
    }
    const back = await ops('restore', `/photos/${photoset}`, '--by', 'test', '--reason', 'follower test');
    expect(back.code, back.err).toBe(0);
    for (const host of hosts)
      await expect
        .poll(async () => (await raw(host.nginx.url, listing)).body.toString().includes(`"${photoset}"`), { timeout: CAP_MS })
        .toBe(true);
  });

  it('refuses a configuration without its folder, or with a bad database or Redis URL', () => {
    expect(() => loadFollowerConfig({})).toThrow(/FRONT_GENERATION_DIR/);
    expect(() => loadFollowerConfig({ FRONT_GENERATION_DIR: '/tmp/x', DATABASE_URL: 'postgres://x' })).toThrow(
      /DATABASE_URL: must start with/,
    );
    expect(() => loadFollowerConfig({ FRONT_GENERATION_DIR: '/tmp/x', REDIS_URL: 'http://x' })).toThrow(/REDIS_URL: must start with redis/);
    expect(() => loadFollowerConfig({ FRONT_GENERATION_DIR: '/tmp/x', FOLLOW_POLL_MS: '10' })).toThrow(/FOLLOW_POLL_MS/);
  });
});
