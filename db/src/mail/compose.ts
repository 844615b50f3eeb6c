import { oneLine } from './headers';

/** The site as a mail names it: its name and the absolute address links start with (no trailing slash). */
export interface MailSite {
  name: string;
  url: string;
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/**
 * What a mail is made of, in order: paragraphs, a button-like link, a small table of facts
 * (a receipt's lines), or a list of links (a release digest's items). Plain text and simple HTML come from the same blocks, so they say the same.
 */
export type MailBlock =
  | string
  | { link: string; label: string }
  | { rows: ReadonlyArray<readonly [string, string]> }
  | { list: ReadonlyArray<{ link: string; label: string }> };

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** A link into the site: `path` starts with '/'; the site's URL comes from configuration, never from a request. */
export const siteLink = (site: MailSite, path: string): string => `${site.url}${path}`;

/**
 * Plain text plus simple HTML, from blocks. No images, no tracking pixels, no remote content: the
 * HTML has inline styles only, so it reads the same with images off.
 */
export function composeMail(site: MailSite, subject: string, greeting: string, blocks: readonly MailBlock[]): RenderedMail {
  const text: string[] = [greeting];
  const html: string[] = [`<p>${escapeHtml(greeting)}</p>`];
  for (const block of blocks) {
    if (typeof block === 'string') {
      text.push(block);
      html.push(`<p>${escapeHtml(block)}</p>`);
    } else if ('link' in block) {
      text.push(`${block.label}:\n${block.link}`);
      html.push(
        `<p><a href="${escapeHtml(block.link)}" style="display:inline-block;padding:10px 16px;background:#1f2937;color:#ffffff;text-decoration:none;border-radius:4px">${escapeHtml(block.label)}</a></p>` +
          `<p style="font-size:12px;color:#555555">${escapeHtml(block.link)}</p>`,
      );
    } else if ('list' in block) {
      text.push(block.list.map((item) => `- ${item.label}\n  ${item.link}`).join('\n'));
      html.push(
        `<ul style="padding-left:20px">${block.list
          .map(
            (item) =>
              `<li style="margin:4px 0"><a href="${escapeHtml(item.link)}" style="color:#1f2937">${escapeHtml(item.label)}</a></li>`,
          )
          .join('')}</ul>`,
      );
    } else {
      text.push(block.rows.map(([k, v]) => `${k}: ${v}`).join('\n'));
      html.push(
        `<table style="border-collapse:collapse">${block.rows
          .map(
            ([k, v]) =>
              `<tr><td style="padding:2px 12px 2px 0;color:#555555">${escapeHtml(k)}</td><td style="padding:2px 0">${escapeHtml(v)}</td></tr>`,
          )
          .join('')}</table>`,
      );
    }
  }
  text.push(`-- \n${site.name}\n${site.url}/`);
  html.push(
    `<p style="font-size:12px;color:#555555">${escapeHtml(site.name)} · <a href="${escapeHtml(site.url)}/">${escapeHtml(site.url.replace(/^https?:\/\//, ''))}</a></p>`,
  );
  return {
    // A title or a site name with a line break must not start a header of its own.
    subject: `${oneLine(subject)} · ${oneLine(site.name)}`,
    text: `${text.join('\n\n')}\n`,
    html: `<!doctype html><html><body style="font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#111111;max-width:560px">${html.join('\n')}</body></html>\n`,
  };
}
