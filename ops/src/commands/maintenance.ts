import { RuleError } from '@media-site/db';
import { maintenanceState, setMaintenance } from '@media-site/db/queues';
import { isoTime } from '@media-site/contracts/iso-time';
import { cliActor, type Command } from './types';

// Maintenance mode from the command line (the console's dashboard has the same switch): for a
// restore or a risky migration. docs/operate.md "Maintenance mode".

export const maintenanceCommands: Record<string, Command> = {
  maintenance: {
    usage: `maintenance [on [--message TEXT] | off]
    Without an argument: whether the site is in maintenance. on: joining, buying and account
    changes answer "paused" with a banner on every page (members keep browsing, watching and
    downloading; sign-in, reports, the provider's webhooks and the console go on); --message adds
    one line for members. off: back to normal. Every bff sees the change within 2 s. Audited.`,
    options: { message: { type: 'string' } },
    positionals: 1,
    minPositionals: 0,
    async run([verb], flags, ctx) {
      const now = (ctx.io.now ?? Date.now)();
      if (verb === 'on' || verb === 'off') {
        if (verb === 'off' && flags.message !== undefined) throw new RuleError('bad_input', '--message goes with maintenance on');
        const message = flags.message as string | undefined;
        await setMaintenance(ctx.knex, verb === 'on', { actor: cliActor(ctx), now, message });
      } else if (verb !== undefined) throw new RuleError('bad_input', 'maintenance: on, off, or nothing to see the state');
      const state = await maintenanceState(ctx.knex);
      ctx.io.out(
        state
          ? `maintenance: ON since ${isoTime(state.since, '-', 's')} (by ${state.by})${state.message ? `: ${state.message}` : ''}`
          : 'maintenance: off',
      );
      return 0;
    },
  },
};
