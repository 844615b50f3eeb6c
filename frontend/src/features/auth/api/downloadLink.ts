import type { DownloadLink } from '@media-site/contracts/member-api';
import { fetchJson } from '../../api/fetchJson';

/** A signed link (valid DOWNLOAD_LINK_TTL_HOURS, 48 h by default) for one /members/ file: resumable, no cookie needed. */
export function getDownloadLink(path: string): Promise<DownloadLink> {
  return fetchJson(`/api/download-link?path=${encodeURIComponent(path)}`, { credentials: 'same-origin', cache: 'no-store' });
}

/** Starts the download of a members' file through a fresh signed link; never the short-lived media cookie. */
export async function startDownload(path: string): Promise<void> {
  const { url } = await getDownloadLink(path);
  const link = document.createElement('a');
  link.href = url;
  link.download = '';
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
}
