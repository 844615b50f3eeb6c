import type { Knex } from 'knex';
import { contentRefOf } from '@media-site/db/reports';

/**
 * Whether the item a media folder belongs to (`video`, `some-folder`) is taken down: the bff signs
 * no new link to it (the media service answers 410 for its files anyway, but a fresh link or edge
 * URL for removed content should not be handed out at all). The takedowns table names the item by
 * content type and folder, which is what a media path carries.
 */
export async function isTakenDown(knex: Knex, family: string | undefined, folder: string): Promise<boolean> {
  const ref = family === undefined ? undefined : contentRefOf(`/${family}/${encodeURIComponent(folder)}`);
  if (!ref) return false;
  return (await knex('takedowns').where({ content_type: ref.type, path: ref.path }).first('id')) !== undefined;
}
