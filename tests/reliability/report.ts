import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../scripts/lib/site';
import { readFigures } from './lib/figures';

const START = '<!-- reliability-figures:start -->';
const END = '<!-- reliability-figures:end -->';
export const reportPath = join(repoRoot, 'docs/reliability.md');

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** Replaces the table between the markers of docs/reliability.md with the recorded figures. */
export function writeReport(note: string): void {
  const sets = readFigures();
  const lines = [START, '', note, '', '| scenario | measure | result | goal | met |', '|---|---|---|---|---|'];
  for (const set of sets) {
    for (const f of set.figures)
      lines.push(`| ${cell(set.scenario)} | ${cell(f.measure)} | ${cell(f.value)} | ${cell(f.goal)} | ${f.ok ? 'yes' : '**no**'} |`);
  }
  lines.push('', END);
  const current = existsSync(reportPath) ? readFileSync(reportPath, 'utf8') : `# Reliability\n\n${START}\n${END}\n`;
  const from = current.indexOf(START);
  const to = current.indexOf(END);
  if (from < 0 || to < 0) throw new Error(`${reportPath} lacks the figure markers`);
  writeFileSync(reportPath, current.slice(0, from) + lines.join('\n') + current.slice(to + END.length));
  console.log(`wrote ${sets.reduce((n, s) => n + s.figures.length, 0)} figures to ${reportPath}`);
}
