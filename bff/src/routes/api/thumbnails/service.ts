import type { CachedBody } from '../../../cache/catalog-cache';
import { NotFoundError } from '../../../errors';
import type { ApiDeps } from '../deps';
import { setFileNames, type FileListKind } from './repository';

export function thumbnailList({ knex, cache }: ApiDeps, kind: FileListKind, folder: string): Promise<CachedBody> {
  return cache.get(`files:${kind}:${folder}`, async () => {
    const names = await setFileNames(knex, kind, folder);
    if (!names) throw new NotFoundError(`no ${kind === 'photoset' ? 'photo set' : 'free photo set'} in folder ${folder}`);
    return names;
  });
}
