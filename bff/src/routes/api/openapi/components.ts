import type { z } from 'zod';
import * as catalog from '@media-site/contracts/api';
import * as admin from '@media-site/contracts/admin';
import * as content from '@media-site/contracts/admin-content';
import * as members from '@media-site/contracts/member-api';
import * as playback from '@media-site/contracts/playback-api';
import { errorBodySchema } from './operation';
import { creationOptions, requestOptions } from '../admin/webauthn-schema';

/**
 * The answer shapes the document names (components/schemas): the shared ones, once each, referred
 * to wherever a route answers them. The names are the types' names in contracts/.
 */
export const COMPONENTS = {
  ErrorBody: errorBodySchema,
  UpdateItem: catalog.updateItem,
  PhotoItem: catalog.photoItem,
  PhotoSetDetail: catalog.photoSetDetail,
  VideoItem: catalog.videoItem,
  VideoPrename: catalog.videoPrename,
  VodItem: catalog.vodItem,
  VodDetail: catalog.vodDetail,
  FreeSetItem: catalog.freeSetItem,
  TeaserItem: catalog.teaserItem,
  ModelItem: catalog.modelItem,
  ModelDetail: catalog.modelDetail,
  SearchResult: catalog.searchResult,
  Member: members.member,
  AccountView: members.accountView,
  DownloadChoice: members.downloadChoice,
  DownloadLink: members.downloadLink,
  LoginChallenge: members.loginChallenge,
  MessageAnswer: members.messageAnswer,
  PaymentConfig: members.paymentConfig,
  FrontendToken: members.frontendToken,
  BackendHandle: members.backendHandle,
  PaymentOutcome: members.paymentOutcome,
  ReportStatus: members.reportStatus,
  Playback: playback.playback,
  PositionView: playback.positionView,
  ContinueWatching: playback.continueWatching,
  AdminMe: admin.adminMe,
  AuditRow: admin.auditRow,
  MemberFound: admin.memberFound,
  MemberDetail: admin.memberDetail,
  PasskeySummary: admin.passkeySummary,
  AdminSummary: admin.adminSummary,
  Confirmation: admin.confirmation,
  DashboardData: admin.dashboardData,
  ContentItem: content.contentItem,
  ContentPage: content.contentPage,
  DeskReport: content.deskReport,
  IngestRun: content.ingestRun,
  ScheduledItem: content.scheduledItem,
  PublicKeyCredentialRequestOptions: requestOptions,
  PublicKeyCredentialCreationOptions: creationOptions,
} satisfies Record<string, z.ZodType>;
