import { z } from 'zod';

/** No video is a day long; also the bound while a video's length is not known yet. */
export const MAX_POSITION_SECONDS = 86_400;
/** A position body is `{"seconds": 1234.567}`: a few dozen bytes. */
export const POSITION_BODY_LIMIT = 256;

export const positionBody = z.strictObject({
  seconds: z
    .number({ message: 'seconds must be a number' })
    .finite()
    .min(0, 'seconds must not be negative')
    .max(MAX_POSITION_SECONDS, `seconds must be at most ${MAX_POSITION_SECONDS}`),
});
export type PositionBody = z.infer<typeof positionBody>;
