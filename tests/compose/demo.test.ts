import { readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROVIDER_ACCEPT } from '@media-site/simulator';
import { testCardNumber } from '@media-site/simulator/luhn';
import { membershipFormData } from '@media-site/simulator/testing';
import { tokenRequestBody } from '../../bff/src/test/account-kit';
import { repoRoot } from '../../scripts/lib/site';
import { freePort } from '../src/nginx';
import { ComposeProject, composeTestEnabled, generatedSecrets, must, waitFor, writeEnvFile } from './compose';

// The demo shape (docker-compose.demo.yml with .env.demo.example): what an operator without a
// provider account evaluates. The seeded catalog, and a payment through the simulator whose
// webhook comes back through nginx, end to end. COMPOSE_TEST=1 only (see compose.test.ts).

const FILES = ['docker-compose.yml', 'docker-compose.demo.yml'];
let project: ComposeProject;
let started = false;

describe.skipIf(!composeTestEnabled)('docker-compose.demo.yml, demo shape', () => {
  beforeAll(async () => {
    const example = await readFile(join(repoRoot, '.env.demo.example'), 'utf8');
    const port = await freePort();
    const values = {
      ...generatedSecrets(),
      PORT: String(port),
      SIMULATOR_PORT: String(await freePort()),
      IMAGE_PREFIX: 'media-site-compose-test',
      BUILD_NETWORK: 'host',
      SITE_SUBNET: '172.30.92.0/24',
      NGINX_ADDRESS: '172.30.92.10',
      SIMULATOR_ADDRESS: '172.30.92.20',
    };
    // The example's lines first; the later (filled-in) ones win.
    project = new ComposeProject('mscomposedemo', FILES, await writeEnvFile(values, example), port);
    await project.compose(['down', '-v', '--remove-orphans'], { timeoutMs: 120_000 });
  });
  afterAll(async () => {
    if (!project) return;
    const down = await project.compose(['down', '-v', '--remove-orphans'], { timeoutMs: 180_000 });
    if (down.code !== 0) console.error(`compose down -v failed: ${down.stderr}`);
    await rm(dirname(project.envFile), { recursive: true, force: true });
  });

  it('refuses .env.demo.example until the five secrets are set', async () => {
    const bare = new ComposeProject('msdemoexample', FILES, join(repoRoot, '.env.demo.example'), 0);
    const r = await bare.compose(['config', '-q']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(
      /set (MYSQL_PASSWORD|MYSQL_ROOT_PASSWORD|MEDIA_TOKEN_KEYS|SIGNIN_KEYS|ADMIN_SECRET_KEYS|WEBHOOK_PROXY_SECRET) in \.env, .*openssl rand/,
    );
  });

  it('starts with the simulator and the demo catalog: every service healthy', async () => {
    await must(project.compose(['up', '-d', '--build'], { timeoutMs: 1_500_000 }), 'compose up --build');
    await project.waitHealthy(['mysql', 'redis', 'bff', 'media-service', 'nginx', 'simulator']);
    expect(await project.inspect('migrate', '{{.State.Status}} {{.State.ExitCode}}')).toBe('exited 0');
    expect(await project.inspect('bff', '{{range .Config.Env}}{{println .}}{{end}}')).toMatch(/^NODE_ENV=development$/m);
    started = true;
    const updates = (await (await fetch(project.url('/api/updates/1'))).json()) as unknown[];
    expect(updates.length).toBeGreaterThan(0);
  }, 1_600_000);

  it('pays through the simulator; its webhook comes back through nginx and is accepted', async () => {
    if (!started) throw new Error('the demo stack did not start');
    const origin = project.url('');
    const post = (path: string, body: unknown, cookie = '') =>
      fetch(project.url(path), {
        method: 'POST',
        headers: { Origin: origin, 'Content-Type': 'application/json', Cookie: cookie },
        body: JSON.stringify(body),
      });
    const credentials = { username: 'demo_buyer', password: 'demo-buyer-pass-1' };
    const first = await post('/api/get_ccbill_token', credentials);
    expect(first.status).toBe(200);
    const step1 = (await first.json()) as { access_token: string; providerBase: string; clientAccnum: number };
    // The browser's call: the published simulator, as CCBILL_PUBLIC_BASE_URL says.
    const created = await fetch(`${step1.providerBase}/payment-tokens/merchant-only-verify`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${step1.access_token}`,
        'Content-Type': 'application/json',
        Accept: PROVIDER_ACCEPT,
        Origin: origin,
      },
      body: JSON.stringify(tokenRequestBody(step1.clientAccnum, testCardNumber('1111'))),
    });
    expect(created.status).toBe(200);
    const { paymentTokenId } = (await created.json()) as { paymentTokenId: string };
    // Step 1's payment cookie goes back on steps 3 and 4, as a browser sends it.
    const cookie = first.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const second = (await (await post('/api/get_ccbill_back_token', { paymentToken: paymentTokenId }, cookie)).json()) as {
      access_token: string;
    };
    const paid = await post(
      '/api/process_payment',
      {
        accessToken: second.access_token,
        paymentToken: paymentTokenId,
        formData: membershipFormData({ ...credentials, email: 'buyer@example.com' }),
      },
      cookie,
    );
    expect(paid.status).toBe(200);

    const login = await post('/api/login', credentials);
    expect(login.status).toBe(200);
    let events = '';
    await waitFor(
      async () => {
        events = await must(
          project.compose(['exec', '-T', 'mysql', 'sh', '-c', 'exec mysql -N -uroot -p"$MYSQL_ROOT_PASSWORD" "$MYSQL_DATABASE"'], {
            input: "select event_type, coalesce(outcome, '') from webhook_events",
          }),
          'mysql',
        );
        return /UpSaleSuccess/.test(events);
      },
      30_000,
      () => `the simulator's webhook to arrive (events: ${events.trim() || 'none'})`,
    );
  });
});
