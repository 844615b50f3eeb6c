import type { z } from 'zod';
import { emailChangeBody, emailConfirmBody } from './account/email';
import { changePasswordBody } from './account/schema';
import { downloadLinkQuery, loginBody } from './auth/schema';
import { letterParam, modelNameParam } from './models/schema';
import { backendHandleBody, frontendTokenBody, processPaymentBody, usernameQuery } from './payments/schema';
import { passwordResetBody, passwordResetConfirmBody } from './password-reset/schema';
import { playableTypeParam } from './playback/schema';
import { positionBody } from './positions/schema';
import { appealBody, referenceParam, reportBody } from './reports/schema';
import { searchTermParam } from './search/schema';
import { folderParam, pageParam } from './shared/params';
import { webhookBody, webhookQuery } from './webhooks/schema';

export interface RouteInput {
  /** The schema's name, for test titles. */
  name: string;
  schema: z.ZodType;
  /** Where the value comes from: a JSON body, the query string (strings only), or one path segment. */
  from: 'body' | 'query' | 'param';
  /** For a path parameter: the segment's name in the routes (`:folder`). */
  segment?: string;
  /** Where it is used, as `METHOD /api/path` (`:name` for a path parameter). */
  routes: string[];
}

/**
 * Every zod schema that reads client input on an /api route. The input-cost and fuzz tests
 * (security/input-cost.test.ts, routes/api/fuzz.test.ts) walk this list, so a route that parses
 * with a schema not listed here goes untested: add it here with the route.
 */
export const ROUTE_INPUTS: readonly RouteInput[] = [
  { name: 'loginBody', schema: loginBody, from: 'body', routes: ['POST /api/login'] },
  { name: 'downloadLinkQuery', schema: downloadLinkQuery, from: 'query', routes: ['GET /api/download-link'] },
  { name: 'changePasswordBody', schema: changePasswordBody, from: 'body', routes: ['POST /api/account/password'] },
  { name: 'emailChangeBody', schema: emailChangeBody, from: 'body', routes: ['POST /api/account/email'] },
  { name: 'emailConfirmBody', schema: emailConfirmBody, from: 'body', routes: ['POST /api/account/email/confirm'] },
  { name: 'passwordResetBody', schema: passwordResetBody, from: 'body', routes: ['POST /api/password-reset'] },
  { name: 'passwordResetConfirmBody', schema: passwordResetConfirmBody, from: 'body', routes: ['POST /api/password-reset/confirm'] },
  { name: 'frontendTokenBody', schema: frontendTokenBody, from: 'body', routes: ['POST /api/get_ccbill_token'] },
  { name: 'backendHandleBody', schema: backendHandleBody, from: 'body', routes: ['POST /api/get_ccbill_back_token'] },
  { name: 'processPaymentBody', schema: processPaymentBody, from: 'body', routes: ['POST /api/process_payment'] },
  { name: 'usernameQuery', schema: usernameQuery, from: 'query', routes: ['GET /api/username-available'] },
  { name: 'webhookQuery', schema: webhookQuery, from: 'query', routes: ['POST /api/ccbill/webhook'] },
  { name: 'webhookBody', schema: webhookBody, from: 'body', routes: ['POST /api/ccbill/webhook'] },
  { name: 'reportBody', schema: reportBody, from: 'body', routes: ['POST /api/reports'] },
  { name: 'appealBody', schema: appealBody, from: 'body', routes: ['POST /api/reports/:reference/appeal'] },
  {
    name: 'referenceParam',
    schema: referenceParam,
    from: 'param',
    segment: 'reference',
    routes: ['GET /api/reports/:reference', 'POST /api/reports/:reference/appeal'],
  },
  { name: 'positionBody', schema: positionBody, from: 'body', routes: ['PUT /api/positions/:type/:folder'] },
  {
    name: 'playableTypeParam',
    schema: playableTypeParam,
    from: 'param',
    segment: 'type',
    routes: [
      'GET /api/playback/:type/:folder',
      'GET /api/positions/:type/:folder',
      'PUT /api/positions/:type/:folder',
      'DELETE /api/positions/:type/:folder',
    ],
  },
  {
    name: 'pageParam',
    schema: pageParam,
    from: 'param',
    segment: 'page',
    routes: [
      'GET /api/updates/:page',
      'GET /api/photos/:page',
      'GET /api/photos-by-date/:page',
      'GET /api/videos/:page',
      'GET /api/videos-by-date/:page',
      'GET /api/vod/:page',
      'GET /api/freephotos/:page',
    ],
  },
  {
    name: 'folderParam',
    schema: folderParam,
    from: 'param',
    segment: 'folder',
    routes: [
      'GET /api/photos/set/:folder',
      'GET /api/videos/prename/:folder',
      'GET /api/vod/prename/:folder',
      'GET /api/thumbnails/:folder',
      'GET /api/freethumbnails/:folder',
      'GET /api/playback/:type/:folder',
      'GET /api/positions/:type/:folder',
      'PUT /api/positions/:type/:folder',
      'DELETE /api/positions/:type/:folder',
    ],
  },
  { name: 'letterParam', schema: letterParam, from: 'param', segment: 'letter', routes: ['GET /api/models/:letter'] },
  { name: 'modelNameParam', schema: modelNameParam, from: 'param', segment: 'name', routes: ['GET /api/modelname/:name'] },
  { name: 'searchTermParam', schema: searchTermParam, from: 'param', segment: 'term', routes: ['GET /api/search/:term'] },
];
