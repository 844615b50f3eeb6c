import { savedType } from '@media-site/contracts/saved-api';
import { BadRequestError } from '../../../errors';
import { modelNameParam } from '../models/schema';
import { folderParam, parseParam, textParam } from '../shared/params';

export const savedTypeParam = savedType.describe('photo, video, vod or model');
/** The item's folder, or a model's name; checked against the type's own rule (parseSavedKey). */
export const savedKeyParam = textParam('key', 150);

export function parseSavedTarget(params: Record<string, string | undefined>) {
  const parsedType = savedType.safeParse(params.type ?? '');
  if (!parsedType.success) throw new BadRequestError('type must be one of photo, video, vod or model');
  const type = parsedType.data;
  const key = type === 'model' ? parseParam(modelNameParam, params.key) : parseParam(folderParam, params.key);
  return [type, key] as const;
}
