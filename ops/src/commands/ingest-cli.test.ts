import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOpsCaptured } from './registry';
import { testRedisUrl, useTestDb } from '@media-site/db/testing';
import { buildIngestFolder } from '../test/fixtures-ingest/build';

const opsDir = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const run = promisify(execFile);

const db = useTestDb('sqlite');
let source: string;
let mediaRoot: string;

beforeAll(async () => {
  source = await buildIngestFolder();
  mediaRoot = await mkdtemp(join(tmpdir(), 'ingest-cli-media-'));
});
afterAll(async () => {
  await Promise.all([source, mediaRoot].map((d) => d && rm(d, { recursive: true, force: true })));
});

function cli(argv: string[], env: NodeJS.ProcessEnv = {}) {
  return runOpsCaptured(argv, { env: { MEDIA_ROOT: mediaRoot, FFMPEG_PATH: '/nonexistent/ffmpeg', ...env }, knex: db.knex });
}

describe('npm run catalog', () => {
  it('ingest prints a summary, skips and a second run says 0 added, 0 updated', async () => {
    const first = await cli(['ingest', source]);
    expect(first.code).toBe(0);
    expect(first.out).toMatch(/^7 added, 0 updated, 0 unchanged, 13 skipped, 0 failed/);
    expect(first.out).toMatch(/skipped:\n(.|\n)*photos\/no-meta: missing meta\.json/);
    expect(first.out).toMatch(/catalog generation 1 -> 2/);
    expect(first.err).toMatch(/^added photos\/set-alpha$/m);
    const second = await cli(['ingest', source, '--quiet']);
    expect(second.code).toBe(0);
    expect(second.out).toMatch(/^0 added, 0 updated, 7 unchanged/);
    expect(second.out).toMatch(/catalog generation unchanged \(2\)/);
    expect(second.err).toBe('');
  });

  it('ingest --json prints the report as JSON', async () => {
    const { code, out } = await cli(['ingest', source, '--json']);
    expect(code).toBe(0);
    const report = JSON.parse(out);
    expect(report.totals).toEqual({ added: 0, updated: 0, unchanged: 7 });
    expect(report.skipped).toContainEqual({ where: 'extras', reason: expect.stringMatching(/unknown type/) });
  });

  it('stats prints counts per type, models, newest upload and generation', async () => {
    const { code, out } = await cli(['stats']);
    expect(code).toBe(0);
    expect(out).toMatch(/^photo sets\s+2 {2}\(4 images\) {2}newest 2025-03-14$/m);
    expect(out).toMatch(/^free sets\s+1 {2}\(2 images\)/m);
    expect(out).toMatch(/^videos\s+2 {2}newest 2025-05-01$/m);
    expect(out).toMatch(/^vods\s+2 {2}newest 2024-01-28$/m);
    expect(out).toMatch(/^models\s+4 {2}\(0 without content\)$/m);
    expect(out).toMatch(/^newest upload 2025-05-01$/m);
    expect(out).toMatch(/^catalog generation 2$/m);
    const json = JSON.parse((await cli(['stats', '--json'])).out);
    expect(json).toMatchObject({ photos: { items: 2, files: 4 }, vods: { items: 2 }, models: { total: 4 }, generation: 2 });
  });

  it.each([
    [[], /no command given/],
    [['frobnicate'], /unknown command: frobnicate/],
    [['ingest'], /ingest takes 1 argument/],
    [['ingest', 'a', 'b'], /ingest takes 1 argument/],
    [['ingest', '/definitely/not/here'], /not a directory/],
    [['stats', '--bogus'], /Unknown option '--bogus'/],
  ])('usage problem %j exits 2 with the usage text', async (argv, message) => {
    const { code, err } = await cli(argv);
    expect(code).toBe(2);
    expect(err).toMatch(message);
    expect(err).toMatch(/usage: npm run ops -- \[<group>\] <command>/);
  });

  it('a bad environment exits 1', async () => {
    const { code, err } = await cli(['stats'], { REDIS_URL: 'http://nope' });
    expect(code).toBe(1);
    expect(err).toMatch(/REDIS_URL: must start with redis:\/\//);
  });

  const redisUrl = testRedisUrl();
  it.skipIf(!redisUrl)('with REDIS_URL, announces the generation on <prefix>catalog:generation', async () => {
    const prefix = `test-ingest-${randomBytes(4).toString('hex')}:`;
    const sub = new Redis(redisUrl as string, { lazyConnect: true });
    await sub.connect();
    try {
      const received = new Promise<string>((resolveMessage) =>
        sub.on('message', (_channel: string, message: string) => resolveMessage(message)),
      );
      await sub.subscribe(`${prefix}catalog:generation`);
      const { code } = await cli(['ingest', source, '--quiet'], { REDIS_URL: redisUrl, CACHE_KEY_PREFIX: prefix });
      expect(code).toBe(0);
      expect(await received).toBe('2');
    } finally {
      sub.disconnect();
    }
  });

  it('--help prints the usage and exits 0', async () => {
    const { code, out } = await cli(['--help']);
    expect(code).toBe(0);
    expect(out).toMatch(/ingest <folder>(.|\n)*stats \[--json\](.|\n)*Exit codes: 0 ok, 1 failure, 2 usage/);
  });

  it('the real entry point sets the exit code', async () => {
    const tsx = resolve(opsDir, '../node_modules/tsx/dist/cli.mjs');
    const failed = await run(process.execPath, [tsx, 'src/cli/ops.ts', 'nope'], { cwd: opsDir }).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect(failed).toMatchObject({ code: 2, stderr: expect.stringMatching(/unknown command: nope/) });
  });
});
