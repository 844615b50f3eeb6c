import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../../scripts/lib/site';

/** One measured line of the reliability table. */
export interface Figure {
  measure: string;
  value: string;
  goal: string;
  ok: boolean;
}

export interface FigureSet {
  /** Sorts the table: load, faults, hostile. */
  order: number;
  scenario: string;
  figures: Figure[];
  at: string;
}

export const figuresDir = join(repoRoot, 'tests/artifacts/reliability');

/** Prints the figures and keeps them for `npm run reliability:all`, which renders docs/reliability.md. */
export function recordFigures(order: number, scenario: string, figures: Figure[]): void {
  mkdirSync(figuresDir, { recursive: true });
  const set: FigureSet = { order, scenario, figures, at: new Date().toISOString() };
  writeFileSync(join(figuresDir, `${order}-${scenario.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}.json`), JSON.stringify(set, null, 2));
  console.log(`\n## ${scenario}`);
  for (const f of figures) console.log(`${f.ok ? 'ok  ' : 'FAIL'} ${f.measure}: ${f.value} (goal: ${f.goal})`);
}

export function readFigures(): FigureSet[] {
  if (!existsSync(figuresDir)) return [];
  return readdirSync(figuresDir)
    .filter((n) => n.endsWith('.json'))
    .map((n) => JSON.parse(readFileSync(join(figuresDir, n), 'utf8')) as FigureSet)
    .sort((a, b) => a.order - b.order || a.scenario.localeCompare(b.scenario));
}

export function figure(measure: string, value: string | number, goal: string, ok: boolean): Figure {
  return { measure, value: String(value), goal, ok };
}

/** Throws one error listing every figure that missed its goal. */
export function assertFigures(figures: Figure[]): void {
  const failed = figures.filter((f) => !f.ok);
  if (failed.length) throw new Error(`goals missed:\n${failed.map((f) => `- ${f.measure}: ${f.value} (goal: ${f.goal})`).join('\n')}`);
}
