import { z } from 'zod';
import { PLAYABLE_TYPES, type PlayableType } from '@media-site/contracts/playback-layout';

export const playableTypeParam = z.enum(PLAYABLE_TYPES as [PlayableType, ...PlayableType[]], { message: 'type must be video or vod' });
