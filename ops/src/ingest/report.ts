import { ITEM_TYPES } from './layout';
import type { Counts, IngestReport } from './ingest';

const counts = (c: Counts) => `${c.added} added, ${c.updated} updated, ${c.unchanged} unchanged`;

export function formatReport(r: IngestReport): string {
  const lines = [
    `${r.dryRun ? 'dry run (nothing written): ' : ''}${counts(r.totals)}, ${r.skipped.length} skipped, ${r.failed.length} failed`,
  ];
  for (const type of ITEM_TYPES) {
    const c = r.byType[type];
    if (c.added + c.updated + c.unchanged) lines.push(`  ${type.padEnd(10)} ${counts(c)}`);
  }
  if (!r.dryRun) {
    lines.push(`models created: ${r.modelsCreated}; media files written: ${r.filesWritten}; video thumbnails: ${r.frames}`);
    lines.push(
      r.generation.after === r.generation.before
        ? `catalog generation unchanged (${r.generation.after})`
        : `catalog generation ${r.generation.before} -> ${r.generation.after}`,
    );
    if (r.encode.pending.length)
      lines.push(`encode jobs: ${r.encode.queued} queued, ${r.encode.pending.length} waiting (npm run ops -- encode, or ingest --wait)`);
  }
  const section = (title: string, entries: { where: string; reason: string }[]) => {
    if (entries.length) lines.push(`${title}:`, ...entries.map((e) => `  ${e.where}: ${e.reason}`));
  };
  section('skipped', r.skipped);
  section('failed', r.failed);
  if (r.notes.length) lines.push('notes:', ...r.notes.map((n) => `  ${n}`));
  return lines.join('\n');
}
