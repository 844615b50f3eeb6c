import type { MailSite } from './compose';

/**
 * The site as mail names it, for programs without the bff's configuration (the operator CLI):
 * the same SITE_NAME and SITE_URL, with the bff's defaults.
 */
export function mailSiteFromEnv(env: Record<string, string | undefined>): MailSite {
  const name = env.SITE_NAME?.trim() || 'Media Site';
  let url = env.SITE_URL?.trim() || 'http://localhost:8080';
  while (url.endsWith('/')) url = url.slice(0, -1);
  return { name, url };
}
