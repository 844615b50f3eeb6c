// Does a console sign-in tell a known admin name from an unknown one by its time? `npm run
// bench:admin-signin` (env: BENCH_DATABASE_URL (MariaDB/MySQL, created if missing; or sqlite:path),
// BENCH_ROUNDS (400)). Times the TOTP sign-in service (db/src/admin/signin.ts, what the route calls
// after its budgets, which are keyed by the typed name alike for both) with a wrong code for a known
// name, an unknown name and a disabled admin, interleaved, and prints each median and p90 and the
// ratio to the known name's: 1.00 means the answer's time says nothing about which names exist.
import { createKnex, migrateLatest } from '@media-site/db';
import { addAdmin, disableAdmin, totpCode, totpSignIn } from '@media-site/db/admin';
import { parseKeyRing } from '@media-site/contracts/token';

const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/bench_admin_signin';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 400);
const KEYS = parseKeyRing(`bench:${'k'.repeat(44)}`);

async function ensureDatabase(url: string): Promise<void> {
  if (url.startsWith('sqlite:')) return;
  const u = new URL(url);
  const name = u.pathname.slice(1);
  u.pathname = '/';
  const admin = createKnex(u.toString());
  await admin.raw(`CREATE DATABASE IF NOT EXISTS \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await admin.destroy();
}

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.floor(q * (xs.length - 1))]!;

async function main(): Promise<void> {
  await ensureDatabase(DATABASE_URL);
  const knex = createKnex(DATABASE_URL);
  await migrateLatest(knex);
  const now = Date.now();
  // Names of this run's own (the audit log is append-only: nothing here deletes).
  const run = now.toString(36);
  const names = { known: `known_${run}`, unknown: `nobody_${run}`, disabled: `gone_${run}` } as const;
  const { secret } = await addAdmin(knex, { name: names.known, role: 'owner', issuer: 'bench', keys: KEYS, now, actor: 'bench' });
  await addAdmin(knex, { name: names.disabled, role: 'support', issuer: 'bench', keys: KEYS, now, actor: 'bench' });
  await disableAdmin(knex, { name: names.disabled, now, actor: 'bench' });
  const good = new Set([-1, 0, 1].map((d) => totpCode(secret, Date.now() + d * 30_000)));
  const wrong = ['000000', '111111', '222222'].find((c) => !good.has(c))!;

  const times: Record<keyof typeof names, number[]> = { known: [], unknown: [], disabled: [] };
  const attempt = { address: '192.0.2.1', now: Date.now() };
  for (let round = -20; round < ROUNDS; round += 1) {
    for (const kind of Object.keys(names) as (keyof typeof names)[]) {
      const started = process.hrtime.bigint();
      const outcome = await totpSignIn(knex, KEYS, names[kind], wrong, attempt);
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (outcome.ok) throw new Error('a wrong code signed in');
      if (round >= 0) times[kind].push(ms);
    }
  }
  const base = quantile(times.known, 0.5);
  console.log(`console TOTP sign-in, wrong code, ${ROUNDS} rounds interleaved (${DATABASE_URL.split(':')[0]})`);
  for (const kind of Object.keys(names) as (keyof typeof names)[]) {
    const median = quantile(times[kind], 0.5);
    console.log(
      `  ${kind.padEnd(9)} median ${median.toFixed(2)} ms  p90 ${quantile(times[kind], 0.9).toFixed(2)} ms  ratio to known ${(median / base).toFixed(2)}`,
    );
  }
  await knex.destroy();
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
