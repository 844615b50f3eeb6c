import type { Knex } from 'knex';
import { CONTENT_TABLE, contentRefOf, type ContentRef } from '@media-site/db/content';

function refOf(family: string | undefined, folder: string): ContentRef | undefined {
  return family === undefined ? undefined : contentRefOf(`/${family}/${encodeURIComponent(folder)}`);
}

/**
 * Whether the item a media folder belongs to (`video`, `some-folder`) is taken down: the bff signs
 * no new link to it (the media service answers 410 for its files anyway, but a fresh link or edge
 * URL for removed content should not be handed out at all). The takedowns table names the item by
 * content type and folder, which is what a media path carries.
 */
export async function isTakenDown(knex: Knex, family: string | undefined, folder: string): Promise<boolean> {
  const ref = refOf(family, folder);
  if (!ref) return false;
  return (await knex('takedowns').where({ content_type: ref.type, path: ref.path }).first('id')) !== undefined;
}

/** Whether that item is scheduled for later (`publish_at` after `now`): no link is signed before its release. */
export async function isUnreleased(knex: Knex, family: string | undefined, folder: string, now: number): Promise<boolean> {
  const ref = refOf(family, folder);
  if (!ref) return false;
  return (await knex(CONTENT_TABLE[ref.type]).where({ path: ref.path }).where('publish_at', '>', now).first('id')) !== undefined;
}
