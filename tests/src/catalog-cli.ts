import { runOpsCaptured, type CapturedRun } from '@media-site/ops/cli';

export type CatalogRun = CapturedRun;

/** `npm run ops -- <argv>` against a test site's database and media tree, output captured. */
export function catalogCli(site: { databaseUrl: string; mediaRoot: string }, ...argv: string[]): Promise<CatalogRun> {
  return runOpsCaptured(argv, { env: { DATABASE_URL: site.databaseUrl, MEDIA_ROOT: site.mediaRoot } });
}
