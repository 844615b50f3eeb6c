import { embeddedDefaults, repoRoot } from '@media-site/contracts/embedded-defaults';

export { repoRoot };

export const defaultDataDir = embeddedDefaults({}).dataDir;

export function databaseUrlFromEnv(env: NodeJS.ProcessEnv = process.env): string {
  return embeddedDefaults(env).databaseUrl;
}

export function mediaRootFromEnv(env: NodeJS.ProcessEnv = process.env): string {
  return embeddedDefaults(env).mediaRoot;
}
