import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../../scripts/lib/site';

// Drives the repository's docker-compose.yml for real (tests/compose/*.test.ts, COMPOSE_TEST=1).

export const composeTestEnabled = process.env.COMPOSE_TEST === '1';

/** Everything compose requires before it starts (docker-compose.yml's `${VAR:?message}`). */
export const REQUIRED = [
  'MYSQL_PASSWORD',
  'MYSQL_ROOT_PASSWORD',
  'MEDIA_TOKEN_KEYS',
  'SIGNIN_KEYS',
  'ADMIN_SECRET_KEYS',
  'WEBHOOK_PROXY_SECRET',
  'SITE_URL',
  'SMTP_URL',
  'MAIL_FROM',
  'CCBILL_CLIENT_ACCNUM',
  'CCBILL_CLIENT_SUBACC',
  'CCBILL_FRONTEND_APP_ID',
  'CCBILL_FRONTEND_SECRET',
  'CCBILL_BACKEND_APP_ID',
  'CCBILL_BACKEND_SECRET',
] as const;

export interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

/** Debian's docker-compose (v1) when installed, else the `docker compose` plugin. */
function composeCommand(): string[] {
  try {
    execFileSync('docker-compose', ['version'], { stdio: 'ignore' });
    return ['docker-compose'];
  } catch {
    return ['docker', 'compose'];
  }
}

// Compose interpolates from the shell before the env file: hand it only what it needs, so a
// variable of the test run (PORT, NODE_ENV, ...) cannot leak into the stack.
const cleanEnv = (): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = {};
  for (const name of ['PATH', 'HOME', 'DOCKER_HOST', 'DOCKER_CONFIG', 'TMPDIR']) if (process.env[name]) env[name] = process.env[name];
  return env;
};

export function run(command: string, args: string[], options: { input?: string; timeoutMs?: number; cwd?: string } = {}): Promise<Result> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: options.cwd ?? repoRoot, env: cleanEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
    child.on('error', (err) => {
      clearTimeout(timer);
      resolve({ code: -1, stdout, stderr: `${stderr}${err.message}` });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
    // A command that exits before reading its input (a failed `exec`) closes the pipe: EPIPE is its
    // answer, not an error of the run (it was an uncaught exception in the compose stage).
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input ?? '');
  });
}

export async function must(result: Promise<Result>, what: string): Promise<string> {
  const r = await result;
  if (r.code !== 0) throw new Error(`${what} failed (exit ${r.code}):\n${r.stderr.slice(-4000)}\n${r.stdout.slice(-2000)}`);
  return r.stdout;
}

export const docker = (args: string[], timeoutMs?: number) => run('docker', args, { timeoutMs });

/** A compose project with its own env file (secrets made here), name, port and subnet. */
export class ComposeProject {
  private readonly cmd = composeCommand();
  constructor(
    readonly name: string,
    readonly files: string[],
    readonly envFile: string,
    readonly port: number,
  ) {}

  compose(args: string[], options: { input?: string; timeoutMs?: number } = {}): Promise<Result> {
    const [bin = 'docker-compose', ...pre] = this.cmd;
    const fileArgs = this.files.flatMap((f) => ['-f', f]);
    return run(bin, [...pre, '-p', this.name, ...fileArgs, '--env-file', this.envFile, ...args], options);
  }

  async containerId(service: string): Promise<string> {
    const id = (await must(this.compose(['ps', '-q', service]), `ps ${service}`)).trim().split('\n')[0] ?? '';
    if (!id) throw new Error(`no container for ${service}`);
    return id;
  }

  async inspect(service: string, format: string): Promise<string> {
    return (await must(docker(['inspect', '-f', format, await this.containerId(service)]), `inspect ${service}`)).trim();
  }

  async address(service: string): Promise<string> {
    return this.inspect(service, '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}');
  }

  /** Health of every long-running service: name -> healthy | starting | unhealthy | (no container). */
  async health(services: string[]): Promise<Record<string, string>> {
    const out: Record<string, string> = {};
    for (const s of services) {
      out[s] = await this.inspect(s, '{{if .State.Health}}{{.State.Health.Status}}{{else}}{{.State.Status}}{{end}}').catch(
        () => '(no container)',
      );
    }
    return out;
  }

  async waitHealthy(services: string[], timeoutMs = 240_000): Promise<void> {
    let last: Record<string, string> = {};
    await waitFor(
      async () => {
        last = await this.health(services);
        return Object.values(last).every((s) => s === 'healthy');
      },
      timeoutMs,
      () => `services healthy (last: ${JSON.stringify(last)})`,
    );
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }
}

export async function waitFor(check: () => Promise<boolean>, timeoutMs: number, what: () => string, everyMs = 1000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what()}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Values a real operator would generate (never the examples'). */
export function generatedSecrets(): Record<string, string> {
  return {
    MYSQL_PASSWORD: randomBytes(24).toString('hex'),
    MYSQL_ROOT_PASSWORD: randomBytes(24).toString('hex'),
    MEDIA_TOKEN_KEYS: `k1:${randomBytes(48).toString('base64')}`,
    SIGNIN_KEYS: `s1:${randomBytes(48).toString('base64')}`,
    ADMIN_SECRET_KEYS: `a1:${randomBytes(48).toString('base64')}`,
    WEBHOOK_PROXY_SECRET: randomBytes(32).toString('hex'),
    SITE_URL: 'https://media.compose.test',
    // A relay where nothing listens: the stack starts and mail waits in the outbox.
    SMTP_URL: `smtp://relay:${randomBytes(18).toString('hex')}@127.0.0.1:9`,
    MAIL_FROM: 'Media Site <no-reply@mail.media-site.test>',
  };
}

export function envText(values: Record<string, string>): string {
  return Object.entries(values)
    .map(([k, v]) => `${k}=${v}\n`)
    .join('');
}

export async function writeEnvFile(values: Record<string, string>, base = ''): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'compose-env-'));
  const file = join(dir, '.env');
  await writeFile(file, `${base}\n${envText(values)}`);
  return file;
}
