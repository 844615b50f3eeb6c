import { z } from 'zod';

/** A whole-number setting from `min` to `max`; `def` when unset. */
export const intSetting = (def: number, min: number, max: number) => z.coerce.number().int().min(min).max(max).default(def);

/** A transform that reads a setting with `parse`; what `parse` throws is the setting's error message. */
export function parsedBy<In, Out>(parse: (value: In) => Out) {
  return (value: In, ctx: z.RefinementCtx<In>): Out => {
    try {
      return parse(value);
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: (err as Error).message });
      return z.NEVER;
    }
  };
}
