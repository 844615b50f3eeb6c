import { z } from 'zod';
import { ERROR_CODES, type ErrorBody, type ErrorCode } from '@media-site/contracts/errors';

/**
 * One /api route as the OpenAPI document describes it. Each resource folder lists its routes in its
 * own openapi.ts with the very schemas its handlers parse with (params, query, body) and the shared
 * answer schemas its handlers build their answers as; openapi/document.ts writes the document.
 */
export interface Operation {
  method: 'get' | 'post' | 'put' | 'delete';
  /** The router's path, `/api/photos/:page`. */
  path: string;
  summary: string;
  /**
   * Whose session the route reads: a member's (`sid` cookie), required or not (`member-or-visitor`:
   * a visitor gets an answer too), or an admin's (`admin_sid`).
   */
  session?: 'member' | 'member-or-visitor' | 'admin';
  /** A path parameter's schema by its name; absent ones are described as plain strings. */
  params?: Record<string, z.ZodType>;
  /** The query string's object schema. */
  query?: z.ZodType;
  body?: z.ZodType;
  /** The body is a form (application/x-www-form-urlencoded) rather than JSON. */
  form?: boolean;
  /** The success answers by status: a JSON schema, `null` for no body (a 303: a redirect), or a media type with no schema (CSV). */
  answers: Partial<Record<200 | 201 | 202 | 204 | 303, z.ZodType | null | { mediaType: string }>>;
  /** The error codes it may answer besides the ones every route may (internal, unavailable). */
  errors: readonly ErrorCode[];
}

/** A list of operations with the tag (the resource) they are listed under. */
export interface Resource {
  tag: string;
  description: string;
  operations: readonly Operation[];
}

/** Every route may answer these: a plain 500, and 503 when a dependency (the database) is away. */
export const ALWAYS: readonly ErrorCode[] = ['internal', 'unavailable'];

/** A site form's guards (shared/guards.ts): the same-origin check and a bounded JSON body. */
export const FORM: readonly ErrorCode[] = ['forbidden', 'bad_request', 'too_large', 'unsupported_media_type'];
/** The same with a per-address budget counted first. */
export const LIMITED_FORM: readonly ErrorCode[] = [...FORM, 'rate_limited'];
/** A console route: its origin check, then a signed-in admin whose role may do it. */
export const CONSOLE: readonly ErrorCode[] = ['unauthenticated', 'forbidden'];
/** A console route with a JSON body. */
export const CONSOLE_BODY: readonly ErrorCode[] = [...CONSOLE, 'bad_request', 'too_large', 'unsupported_media_type'];
/** A console change that needs a session confirmed with a fresh code or passkey. */
export const SENSITIVE: readonly ErrorCode[] = [...CONSOLE_BODY, 'confirm_required'];

/** The body of every error answer: `{ "error": { "code", "message" } }` (contracts/src/errors.ts). */
export const errorBodySchema = z.strictObject({
  error: z.strictObject({ code: z.enum(ERROR_CODES as [ErrorCode, ...ErrorCode[]]), message: z.string() }),
});
// The schema and the interface the services write with are one shape.
export const sameAsErrorBody: z.infer<typeof errorBodySchema> extends ErrorBody
  ? ErrorBody extends z.infer<typeof errorBodySchema>
    ? true
    : never
  : never = true;
