import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Knex } from 'knex';
import { videoDownloadName, vodDownloadName } from '@media-site/contracts/download-name';
import type { PlayableType } from '@media-site/contracts/playback-layout';

/** The original's file under MEDIA_ROOT: `{type}/{path}/{download name}` (ingest and seed store it so). */
export async function originalFile(db: Knex, mediaRoot: string, type: PlayableType, path: string): Promise<string | null> {
  if (type === 'video') {
    const row = await db('videos').where({ path }).first('prename');
    return row ? join(mediaRoot, 'video', path, videoDownloadName(String(row.prename))) : null;
  }
  const row = await db('vods').where({ path }).first('prename', 'format', 'datetoupload');
  return row
    ? join(
        mediaRoot,
        'vod',
        path,
        vodDownloadName({ prename: String(row.prename), path, format: Number(row.format), datetoupload: String(row.datetoupload) }),
      )
    : null;
}

/** Size and modification time: what changes when an original is replaced (ingest keeps the source's mtime). */
export async function sourceSig(file: string): Promise<string | null> {
  try {
    const s = await stat(file);
    return s.isFile() && s.size > 0 ? `${s.size}-${Math.round(s.mtimeMs)}` : null;
  } catch {
    return null;
  }
}
