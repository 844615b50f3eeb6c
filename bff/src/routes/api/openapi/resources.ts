import { accountApi } from '../account/openapi';
import { activityApi } from '../activity/openapi';
import { adminApi } from '../admin/openapi';
import { adminContentApi } from '../admin/openapi-content';
import { authApi } from '../auth/openapi';
import { freePhotoApi } from '../freephotos/openapi';
import { modelApi } from '../models/openapi';
import { passwordResetApi } from '../password-reset/openapi';
import { paymentApi } from '../payments/openapi';
import { photoApi } from '../photos/openapi';
import { playbackApi } from '../playback/openapi';
import { playerApi } from '../player/openapi';
import { positionApi } from '../positions/openapi';
import { reportApi } from '../reports/openapi';
import { savedApi } from '../saved/openapi';
import { mailApi } from '../mail/openapi';
import { searchApi } from '../search/openapi';
import { siteApi } from '../site/openapi';
import { teaserApi } from '../teasers/openapi';
import { thumbnailApi } from '../thumbnails/openapi';
import { updateApi } from '../updates/openapi';
import { videoApi } from '../videos/openapi';
import { vodApi } from '../vod/openapi';
import { webhookApi } from '../webhooks/openapi';
import { openApiApi } from './openapi';

/** Every resource's description, in the order index.ts mounts the routes. */
export const RESOURCES = [
  openApiApi,
  updateApi,
  photoApi,
  videoApi,
  vodApi,
  modelApi,
  thumbnailApi,
  freePhotoApi,
  searchApi,
  teaserApi,
  authApi,
  accountApi,
  passwordResetApi,
  paymentApi,
  webhookApi,
  reportApi,
  playbackApi,
  positionApi,
  savedApi,
  mailApi,
  playerApi,
  activityApi,
  adminApi,
  adminContentApi,
  siteApi,
] as const;
