import { createKnex } from '@media-site/db';
import { ConfigError, loadConfig } from '../config';
import { approve, decline, expireOpen, listOpen } from '../routes/api/payments/reconcile';

const USAGE = `usage: npm run reconcile -w bff -- <command>
  list [--older-than-minutes N]        attempts whose outcome is unknown (default: older than 5 minutes)
  approve <attempt id> [--subscription-id ID]   the provider shows the charge: grant access
  decline <attempt id>                 the provider shows no charge: release the username
  expire --older-than-hours N          mark attempts still unknown after N hours (no webhook came) as failed`;

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

async function main(args: string[]): Promise<number> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    console.error(err instanceof ConfigError ? err.message : err);
    return 1;
  }
  const [command, target] = args;
  const knex = createKnex(config.DATABASE_URL);
  try {
    if (command === 'list') {
      const minutes = Number(option(args, '--older-than-minutes') ?? 5);
      const rows = await listOpen(knex, minutes * 60_000);
      for (const a of rows) {
        console.log(`${a.id}\t${a.status}\t${new Date(a.created_at).toISOString()}\t${a.kind}\t${a.username}\t${a.amount}\t${a.provider_subscription_id ?? '-'}`);
      }
      console.log(`${rows.length} open attempt(s)`);
      return 0;
    }
    const id = Number(target);
    if (command === 'approve' && Number.isInteger(id)) {
      console.log(await approve(knex, id, option(args, '--subscription-id') ?? null, { membership: { periodDays: config.MEMBERSHIP_PERIOD_DAYS, rebills: config.MEMBERSHIP_REBILLS }, site: { name: config.SITE_NAME, url: config.SITE_URL } }));
      return 0;
    }
    if (command === 'decline' && Number.isInteger(id)) {
      console.log(await decline(knex, id));
      return 0;
    }
    const hours = Number(option(args, '--older-than-hours'));
    if (command === 'expire' && Number.isFinite(hours) && hours >= 1) {
      console.log(`${await expireOpen(knex, hours * 3_600_000)} attempt(s) marked failed`);
      return 0;
    }
    console.error(USAGE);
    return 2;
  } finally {
    await knex.destroy();
  }
}

process.exitCode = await main(process.argv.slice(2));
