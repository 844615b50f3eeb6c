import type Router from '@koa/router';
import { exactRouter } from '../exact-router';
import type { ApiDeps } from './deps';
import { accountRoutes } from './account/routes';
import { activityRoutes } from './activity/routes';
import { adminRoutes } from './admin/routes';
import { authRoutes } from './auth/routes';
import { freePhotoRoutes } from './freephotos/routes';
import { passwordResetRoutes } from './password-reset/routes';
import { paymentRoutes } from './payments/routes';
import { playbackRoutes } from './playback/routes';
import { playerRoutes } from './player/routes';
import { positionRoutes } from './positions/routes';
import { savedRoutes } from './saved/routes';
import { mailRoutes } from './mail/routes';
import { webhookRoutes } from './webhooks/routes';
import { modelRoutes } from './models/routes';
import { openApiRoutes } from './openapi/routes';
import { photoRoutes } from './photos/routes';
import { reportRoutes } from './reports/routes';
import { searchRoutes } from './search/routes';
import { siteRoutes } from './site/routes';
import { teaserRoutes } from './teasers/routes';
import { thumbnailRoutes } from './thumbnails/routes';
import { updateRoutes } from './updates/routes';
import { videoRoutes } from './videos/routes';
import { vodRoutes } from './vod/routes';

/** Every /api resource (anything else falls through to the app's 404 JSON), one folder each; later resources (members, payments) are added here. */
export function apiRouter(deps: ApiDeps): Router {
  const api = exactRouter({ prefix: '/api' });
  openApiRoutes(api);
  // The hot catalog routes register on this router directly (a nested router costs a dispatch per
  // request); other resources may still be nested with api.use(router.routes()).
  for (const resource of [
    updateRoutes,
    photoRoutes,
    videoRoutes,
    vodRoutes,
    modelRoutes,
    thumbnailRoutes,
    freePhotoRoutes,
    searchRoutes,
    teaserRoutes,
  ]) {
    resource(api, deps);
  }
  if (deps.account) {
    for (const resource of [
      authRoutes,
      accountRoutes,
      passwordResetRoutes,
      paymentRoutes,
      webhookRoutes,
      reportRoutes,
      playbackRoutes,
      positionRoutes,
      savedRoutes,
      mailRoutes,
      playerRoutes,
      activityRoutes,
      adminRoutes,
      siteRoutes,
    ])
      resource(api, deps.account);
  }
  return api;
}
