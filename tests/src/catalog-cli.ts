import { runOpsCommand } from '../../ops/src/commands/registry';

export interface CatalogRun {
  code: number;
  out: string;
  err: string;
}

/** `npm run ops -- <argv>` against a test site's database and media tree, output captured. */
export async function catalogCli(site: { databaseUrl: string; mediaRoot: string }, ...argv: string[]): Promise<CatalogRun> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runOpsCommand(argv, {
    env: { DATABASE_URL: site.databaseUrl, MEDIA_ROOT: site.mediaRoot },
    out: (s) => out.push(s),
    err: (s) => err.push(s),
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}
