import { describe, expect, it } from 'vitest';
import { AppError, asAppError } from './errors';

/** An error as http-errors (koa's ctx.throw, routers) builds one. */
function thrown(status: number, expose: boolean, headers?: Record<string, string>) {
  return Object.assign(new Error('framework said no'), { status, expose, headers });
}

describe('asAppError', () => {
  it('keeps an AppError as it is', () => {
    const err = new AppError('busy', 'later', { 'Retry-After': '2' });
    expect(asAppError(err)).toBe(err);
  });

  it('turns an exposable 4xx into the code for its status, with its headers', () => {
    const err = asAppError(thrown(401, true, { 'WWW-Authenticate': 'Bearer' }));
    expect(err).toMatchObject({
      code: 'unauthenticated',
      status: 401,
      message: 'framework said no',
      headers: { 'WWW-Authenticate': 'Bearer' },
    });
    expect(asAppError(thrown(413, true))).toMatchObject({ code: 'too_large', status: 413 });
    expect(asAppError(thrown(422, true))).toMatchObject({ code: 'bad_request', status: 400 });
  });

  it('leaves what is not ours to explain to the plain 500', () => {
    expect(asAppError(thrown(400, false))).toBeUndefined();
    expect(asAppError(thrown(503, true))).toBeUndefined();
    expect(asAppError(new Error('bug'))).toBeUndefined();
    expect(asAppError(null)).toBeUndefined();
  });
});
