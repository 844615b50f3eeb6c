// The cheaper fault scenarios, short, inside npm test: Redis killed and restarted under load, the
// card provider failing and stalling, a full variant disk. The long ones (MySQL stop/freeze,
// SIGTERM to each service, longer phases) run from `npm run reliability:faults`.
import { describe, expect, it } from 'vitest';
import { recordFigures, type Figure } from './lib/figures';
import { diskFull } from './scenarios/disk';
import { providerFaults } from './scenarios/provider';
import { redisOutage } from './scenarios/redis';

function expectGoals(title: string, figures: Figure[]): void {
  recordFigures(29, title, figures);
  expect(figures.filter((f) => !f.ok)).toEqual([]);
}

describe('faults (short)', () => {
  it('Redis killed and restarted under load: no errors, no stall, the cache refills', async () => {
    expectGoals('Fault (npm test, short): Redis killed and restarted', await redisOutage({ phaseMs: 1500, connections: 8 }));
  }, 90_000);

  it('the provider failing and stalling: payments fail with their message, the catalog is unaffected', async () => {
    expectGoals('Fault (npm test, short): card provider failing and stalling', await providerFaults({ stalls: 2, connections: 4 }));
  }, 120_000);

  it('the variant disk full: thumbnails served from the original, variants resume', async () => {
    expectGoals('Fault (npm test, short): variant cache disk full', await diskFull());
  }, 120_000);
});
