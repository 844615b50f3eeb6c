import type { Context } from 'koa';
import { AppError } from '../errors';
import { askedFile, mayHave, type AccessDeps } from './access';
import { askedWidth, representationSender, type RepresentationDeps } from './representation';

export interface MembersDeps extends AccessDeps, RepresentationDeps {
  /** Unix seconds; tests pin the clock. */
  now?: () => number;
}

/**
 * GET/HEAD /members/<family>/<path> (or /edge/members/..., an edge URL): may this request have
 * this file (access.ts), then which representation, sent how (representation.ts).
 */
export function membersHandler(deps: MembersDeps) {
  const now = deps.now ?? (() => Date.now() / 1000);
  const send = representationSender(deps);
  return async (ctx: Context): Promise<void> => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') throw new AppError('method_not_allowed', 'Use GET or HEAD', { Allow: 'GET, HEAD' });
    // Until both lists have loaded once, no file can be told apart from a taken-down or revoked one.
    if (!deps.takedowns.loaded || !deps.revocations.loaded) {
      throw new AppError('not_ready', 'The media service is starting; try again in a moment', { 'Retry-After': '2' });
    }
    const asked = askedFile(ctx, deps);
    // A malformed `w` is refused before any credential is looked at.
    const width = askedWidth(ctx, asked.path);
    const access = mayHave(ctx, asked, deps, now());
    if (access) await send(ctx, asked, access, width);
  };
}
