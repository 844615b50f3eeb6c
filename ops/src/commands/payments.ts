import { approve, decline, expireOpen, listOpen, settleOptionsFromEnv } from '@media-site/db/payments';
import { recordRead } from '@media-site/db/admin';
import { cliActor, UsageError, type Command } from './types';

const number = (flags: Record<string, unknown>, name: string): number | undefined =>
  flags[name] === undefined ? undefined : Number(flags[name]);

/**
 * Helping with a stuck payment: charges in doubt that no webhook settled. The settling itself is
 * db's payments module, which the bff's charge answers, webhooks and console use too; this is its
 * command line.
 */
export const paymentCommands: Record<string, Command> = {
  reconcile: {
    usage: `reconcile list [--older-than-minutes N] | approve <attempt id> [--subscription-id ID] | decline <attempt id> | expire --older-than-hours N
    Payment attempts whose outcome is unknown (default: older than 5 minutes); approve: the provider
    shows the charge, grant access; decline: it shows none, release the username; expire: mark the
    attempts still unknown after N hours (no webhook came) as failed. Approvals and declines are
    audited (as the console's reconcile, on the same service). Approving reads
    MEMBERSHIP_PERIOD_DAYS, MEMBERSHIP_REBILLS, SITE_NAME and SITE_URL like the bff.`,
    options: { 'older-than-minutes': { type: 'string' }, 'subscription-id': { type: 'string' }, 'older-than-hours': { type: 'string' } },
    positionals: 2,
    minPositionals: 1,
    async run([sub, target], flags, ctx) {
      const { knex, io } = ctx;
      const by = { actor: cliActor(ctx) };
      const now = (io.now ?? Date.now)();
      if (sub === 'list') {
        const minutes = number(flags, 'older-than-minutes') ?? 5;
        const rows = await listOpen(knex, minutes * 60_000);
        // Members' usernames and payments: a read recorded before printing.
        await recordRead(knex, { ...by, now }, 'payment.list', '', { shown: rows.length, olderThanMinutes: minutes });
        for (const a of rows) {
          io.out(
            `${a.id}\t${a.status}\t${new Date(a.created_at).toISOString()}\t${a.kind}\t${a.username}\t${a.amount}\t${a.provider_subscription_id ?? '-'}`,
          );
        }
        io.out(`${rows.length} open attempt(s)`);
        return 0;
      }
      const id = Number(target);
      if (sub === 'approve' && Number.isInteger(id)) {
        io.out(
          await approve(knex, id, (flags['subscription-id'] as string | undefined) ?? null, settleOptionsFromEnv(io.env), Date.now(), by),
        );
        return 0;
      }
      if (sub === 'decline' && Number.isInteger(id)) {
        io.out(await decline(knex, id, now, by));
        return 0;
      }
      const hours = number(flags, 'older-than-hours');
      if (sub === 'expire' && hours !== undefined && Number.isFinite(hours) && hours >= 1) {
        io.out(`${await expireOpen(knex, hours * 3_600_000)} attempt(s) marked failed`);
        return 0;
      }
      throw new UsageError(`reconcile: unknown or incomplete subcommand ${sub ?? ''}`.trim());
    },
  },
};
