import type { Knex } from 'knex';
import { CONTENT_TABLE, contentRefOf, type ContentType } from '../content/takedowns';

/**
 * The item a report names, for the console's preview: its type, path and title, whether it is taken
 * down now, and (a free photo set) the first file, whose public URL is its picture. Undefined when the
 * report's URL names no item of the catalog (a page, a typo, an item since deleted).
 */
export interface ReportedItem {
  type: ContentType;
  path: string;
  title: string;
  takenDown: boolean;
  firstFile: string | null;
}

export async function reportedItem(db: Knex, contentUrl: string): Promise<ReportedItem | undefined> {
  const ref = contentRefOf(contentUrl);
  if (!ref) return undefined;
  const row = await db(CONTENT_TABLE[ref.type]).where({ path: ref.path }).first('id', 'updatename');
  if (!row) return undefined;
  const takenDown = (await db('takedowns').where({ content_type: ref.type, path: ref.path }).first('id')) !== undefined;
  let firstFile: string | null = null;
  if (ref.type === 'freephotoset') {
    const file = await db('freephotoset_files').where({ freephotoset_id: row.id }).orderBy('position').first('filename');
    firstFile = file ? String(file.filename) : null;
  }
  return { type: ref.type, path: ref.path, title: String(row.updatename), takenDown, firstFile };
}
