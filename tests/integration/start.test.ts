import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../scripts/lib/process';
import { repoRoot } from '../../scripts/lib/site';

// `npm start` as a newcomer runs it (a fresh data folder, a free port, the default log level): one
// line per part as it gets ready and nothing else of theirs before the banner; then SIGTERM to npm:
// every process it started (orchestrator, bff, media service, simulator, nginx and its workers) must go.

function descendants(root: number): number[] {
  const rows = execFileSync('ps', ['-e', '-o', 'pid=,ppid='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number]);
  const found = new Set([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, ppid] of rows) {
      if (found.has(ppid) && !found.has(pid)) {
        found.add(pid);
        grew = true;
      }
    }
  }
  found.delete(root);
  return [...found];
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('npm start', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'npm-start-'));
  let npm: ChildProcess | undefined;
  let tree: number[] = [];

  afterAll(() => {
    // Only if the test failed half way: end what this test started, by pid.
    for (const pid of tree) if (alive(pid)) process.kill(pid, 'SIGKILL');
    if (npm?.pid && alive(npm.pid)) npm.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('starts quietly, answers on its port with the seeded catalog, and SIGTERM leaves no process behind', async () => {
    const port = await freePort();
    const { LOG_LEVEL: _ownLevel, ...env } = process.env;
    npm = spawn('npm', ['start'], {
      cwd: repoRoot,
      env: { ...env, PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const up = new Promise<string>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        const url = /The site is up at (http:\/\/\S+)/.exec(output)?.[1];
        if (url) resolve(url);
      };
      npm?.stdout?.on('data', onData);
      npm?.stderr?.on('data', onData);
      npm?.once('exit', (code) => reject(new Error(`npm start exited (${code}):\n${output.slice(-3000)}`)));
    });
    const url = await up;
    // What to end if an assertion below fails.
    tree = descendants(npm.pid ?? 0);
    expect(url).toBe(`http://127.0.0.1:${port}`);
    const beforeBanner = output.slice(0, output.indexOf('The site is up at'));
    for (const ready of [
      /^card-provider simulator ready at http:\/\/127\.0\.0\.1:\d+$/m,
      /^bff ready at http:\/\/127\.0\.0\.1:\d+$/m,
      /^media service ready at http:\/\/127\.0\.0\.1:\d+$/m,
      /^encoder ready/m,
      new RegExp(`^front door \\((nginx|Node proxy)\\) ready at ${url.replaceAll('.', '\\.')}$`, 'm'),
    ])
      expect(beforeBanner).toMatch(ready);
    // No stack trace, no warning, none of the services' own lines (request logs, list retries).
    expect(beforeBanner).not.toMatch(/^[ \t]+at |"stack"|ECONNREFUSED/m);
    expect(beforeBanner).not.toMatch(/\bwarn(ing)?\b|\[(error|crit|alert|emerg)\]|"level":[4-6]0/i);
    expect(beforeBanner).not.toMatch(/^\[(bff|media|provider|nginx)\] /m);

    const updates = (await (await fetch(`${url}/api/updates/1`)).json()) as Array<{ updatename: string }>;
    expect(updates.length).toBeGreaterThan(0);
    expect(typeof updates[0]?.updatename).toBe('string');
    const home = await fetch(`${url}/photos?page=2`);
    expect(home.status).toBe(200);
    expect(await home.text()).toMatch(/<div id="root">/);

    const npmPid = npm.pid;
    if (npmPid === undefined) throw new Error('npm has no pid');
    tree = descendants(npmPid);
    // The orchestrator, bff, media service, provider simulator, nginx master and worker at least.
    expect(tree.length).toBeGreaterThanOrEqual(6);

    const exited = new Promise<number | null>((resolve) => npm?.once('exit', (code) => resolve(code)));
    npm.kill('SIGTERM');
    await exited;
    const deadline = Date.now() + 15_000;
    while (tree.some(alive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(tree.filter(alive)).toEqual([]);
    await expect(fetch(`${url}/`)).rejects.toThrow();
  }, 240_000);
});
