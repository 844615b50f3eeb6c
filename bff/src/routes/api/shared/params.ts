import { z } from 'zod';
import { BadRequestError } from '../../../errors';

export const MAX_PAGE = 10_000;
/** Folder names are the catalog's `path` column (150 characters) in a file-name-safe alphabet. */
export const MAX_FOLDER_LENGTH = 150;

/**
 * Options for a length check that ends the parse when it fails. zod 4 runs every check of a string
 * even after one failed, so a bare `.max(254)` still let a pattern run over a 16 KB value:
 * every length bound before a pattern or refinement on a route's input says `stop()`.
 */
export function stop(message?: string): { abort: true; message?: string } {
  return message === undefined ? { abort: true } : { abort: true, message };
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

export const pageParam = z
  .string()
  .regex(/^[1-9]\d{0,4}$/, `page must be a whole number from 1 to ${MAX_PAGE}`)
  .transform(Number)
  .refine((n) => n <= MAX_PAGE, `page must be a whole number from 1 to ${MAX_PAGE}`);

export const folderParam = z
  .string()
  .regex(
    new RegExp(`^[\\w.-]{1,${MAX_FOLDER_LENGTH}}$`),
    `folder must be 1 to ${MAX_FOLDER_LENGTH} characters of letters, digits, '.', '_' or '-'`,
  );

/** Free text from a URL segment: trimmed, bounded, no control characters. */
export function textParam(what: string, max: number) {
  const message = `${what} must be 1 to ${max} characters without control characters`;
  return z
    .string()
    .transform((s) => s.trim())
    .pipe(
      z
        .string()
        .min(1, stop(message))
        .max(max, stop(message))
        .refine((s) => !CONTROL.test(s), message),
    );
}

export function parseParam<T>(schema: z.ZodType<T, string>, value: string | undefined): T {
  const parsed = schema.safeParse(value ?? '');
  if (parsed.success) return parsed.data;
  throw new BadRequestError(parsed.error.issues[0]?.message ?? 'bad parameter');
}
