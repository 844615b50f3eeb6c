import type { Knex } from 'knex';
import { visibleOnly } from '../shared/repository';

export type FileListKind = 'photoset' | 'freephotoset';

/** File names of a set in position order, or undefined when no set has that folder. */
export async function setFileNames(knex: Knex, kind: FileListKind, path: string): Promise<string[] | undefined> {
  const set = await visibleOnly(knex(`${kind}s`).where({ path }), knex, `${kind}s`).first('id');
  if (!set) return undefined;
  const rows = await knex(`${kind}_files`)
    .where({ [`${kind}_id`]: set.id })
    .orderBy('position')
    .select('filename');
  return rows.map((r: { filename: string }) => r.filename);
}
