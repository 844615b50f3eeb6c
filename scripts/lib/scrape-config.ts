import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export interface ScrapeTargets {
  /** host:port of each /metrics listener, by job (bff, media, encoder, ...). */
  jobs: Record<string, string[]>;
  /** The alert rules to load (monitoring/alerts.yml, or a copy). */
  rulesFile: string;
  /** Scrape and rule evaluation interval; 15 s unless given. */
  intervalSeconds?: number;
}

/** A Prometheus configuration that scrapes the given targets and loads the alert rules. */
export function scrapeConfig({ jobs, rulesFile, intervalSeconds = 15 }: ScrapeTargets): string {
  const lines = [
    '# Written by npm start (scripts/lib/scrape-config.ts): a local Prometheus for this site.',
    'global:',
    `  scrape_interval: ${intervalSeconds}s`,
    `  evaluation_interval: ${intervalSeconds}s`,
    'rule_files:',
    `  - ${JSON.stringify(rulesFile)}`,
    'scrape_configs:',
  ];
  for (const [job, targets] of Object.entries(jobs)) {
    lines.push(`  - job_name: ${job}`, '    static_configs:', `      - targets: [${targets.map((t) => JSON.stringify(t)).join(', ')}]`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * `npm start` with METRICS_PORT=N: the bff answers /metrics on N, the media service on N+1, the
 * encoder on N+2 (scripts/lib/site.ts). Writes DATA_DIR/monitoring/prometheus.yml for them and
 * returns its path.
 */
export function writeLocalScrapeConfig(dataDir: string, repoRoot: string, metricsPort: number, host = '127.0.0.1'): string {
  const dir = join(dataDir, 'monitoring');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'prometheus.yml');
  const at = (offset: number) => [`${host}:${metricsPort + offset}`];
  writeFileSync(
    file,
    scrapeConfig({ jobs: { bff: at(0), media: at(1), encoder: at(2) }, rulesFile: resolve(repoRoot, 'monitoring/alerts.yml') }),
  );
  return file;
}
