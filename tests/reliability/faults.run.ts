// Fault scenarios under load, each on a fresh stack: Redis killed and restarted, MySQL stopped and
// restarted, the card provider stalling and failing, SIGTERM to each service, a full variant disk.
// Run: npm run reliability:faults (FAULTS=redis,mysql,... picks some; FAULT_PHASE_MS sets the length
// of each before/during/after phase). Exit code 1 when a goal is missed.
import { assertFigures, recordFigures, type Figure } from './lib/figures';
import { diskFull } from './scenarios/disk';
import { mysqlOutage } from './scenarios/mysql';
import { providerFaults } from './scenarios/provider';
import { redisOutage } from './scenarios/redis';
import { sigtermEach } from './scenarios/sigterm';

const phaseMs = Number(process.env.FAULT_PHASE_MS ?? 8000);
const scenarios: Record<string, { order: number; title: string; run: () => Promise<Figure[]> }> = {
  mysql: { order: 22, title: 'Fault: MySQL stopped and restarted', run: () => mysqlOutage({ phaseMs }) },
  provider: { order: 23, title: 'Fault: card provider failing and stalling', run: () => providerFaults({ stalls: 8 }) },
  disk: { order: 25, title: 'Fault: variant cache disk full', run: () => diskFull() },
  redis: { order: 21, title: 'Fault: Redis killed and restarted', run: () => redisOutage({ phaseMs }) },
  sigterm: { order: 24, title: 'Fault: SIGTERM to each service under load', run: () => sigtermEach({ before: 600 }) },
};

const wanted = (process.env.FAULTS ?? Object.keys(scenarios).join(','))
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);
const missed: Figure[] = [];
for (const name of wanted) {
  const scenario = scenarios[name];
  if (!scenario) throw new Error(`unknown fault scenario ${name}; known: ${Object.keys(scenarios).join(', ')}`);
  const figures = await scenario.run();
  recordFigures(scenario.order, scenario.title, figures);
  missed.push(...figures.filter((f) => !f.ok));
}
assertFigures(missed);
