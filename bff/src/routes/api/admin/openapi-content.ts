import {
  contentBulkResult,
  contentChanged,
  contentEdited,
  contentPage,
  contentReencoded,
  contentScheduled,
  deskAnswer,
  deskQueue,
  ingestAnswer,
  ingestList,
  scheduledList,
  teaseAnswer,
} from '@media-site/contracts/admin-content';
import { queueActionAnswer, queuesPage } from '@media-site/contracts/admin-queues';
import { CONSOLE, CONSOLE_BODY, type Operation, type Resource } from '../openapi/operation';
import { contentQuery, editBody, itemBody, scheduleBody } from './content';
import { bulkBody } from './content-bulk';
import { ingestBody, ingestRunId } from './ingests';
import { queueJobId, queueParam } from './queues';
import { maintenanceBody } from './maintenance';
import { siteStatus } from '../site/openapi';
import { appealBody, decideBody, reportReference, resolveBody } from './report-desk';
import { contentChangeBody } from './schema';
import { teaseBody } from './teasers';

const admin = { session: 'admin' } as const;
const CHANGE = [...CONSOLE_BODY, 'not_found', 'conflict'] as const;

const change = (path: string, summary: string, body: Operation['body'], answer: Operation['answers'][200]): Operation => ({
  method: 'post',
  path,
  summary,
  ...admin,
  body,
  answers: { 200: answer },
  errors: CHANGE,
});

const deskStep = (step: string, summary: string, body?: Operation['body']): Operation => ({
  method: 'post',
  path: `/api/admin/reports/:reference/${step}`,
  summary,
  ...admin,
  params: { reference: reportReference },
  ...(body ? { body } : {}),
  answers: { 200: deskAnswer },
  errors: CHANGE,
});

const queueAction = (path: string, summary: string, withJob = false): Operation => ({
  method: 'post',
  path: `/api/admin/queues/:queue${path}`,
  summary,
  ...admin,
  params: withJob ? { queue: queueParam, id: queueJobId } : { queue: queueParam },
  answers: { 200: queueActionAnswer },
  errors: CHANGE,
});

export const adminContentApi: Resource = {
  tag: 'admin-content',
  description: 'The console\'s content, takedowns, report desk, ingest, queues and "coming soon" (ADMIN_ALLOWED_IPS only).',
  operations: [
    {
      method: 'get',
      path: '/api/admin/content',
      summary: 'Search the catalog: items and models, by state',
      ...admin,
      query: contentQuery,
      answers: { 200: contentPage },
      errors: [...CONSOLE, 'bad_request'],
    },
    change('/api/admin/content/edit', "Edit an item's title, model, date, price or tags", editBody, contentEdited),
    change('/api/admin/content/schedule', 'Schedule a release (null: publish now)', scheduleBody, contentScheduled),
    change('/api/admin/content/reencode', 'Queue a video or VOD for encoding again', itemBody, contentReencoded),
    change('/api/admin/content/bulk', 'One change (or its preview) for up to 100 items, each audited', bulkBody, contentBulkResult),
    change('/api/admin/takedowns', 'Take an item down (optionally answering a report)', contentChangeBody, contentChanged),
    change('/api/admin/restores', 'Restore a taken-down item', contentChangeBody, contentChanged),
    {
      method: 'get',
      path: '/api/admin/reports',
      summary: 'The open reports, most urgent first',
      ...admin,
      answers: { 200: deskQueue },
      errors: CONSOLE,
    },
    deskStep('ack', 'Acknowledge a report'),
    deskStep('resolve', 'Resolve a report with its outcome', resolveBody),
    deskStep('appeal', "Record a reporter's appeal", appealBody),
    deskStep('decide', 'Decide an appeal', decideBody),
    {
      method: 'get',
      path: '/api/admin/ingests',
      summary: 'The folders under INGEST_ROOT and the recent ingest runs',
      ...admin,
      answers: { 200: ingestList },
      errors: CONSOLE,
    },
    {
      method: 'post',
      path: '/api/admin/ingests',
      summary: "Queue an ingest of one folder (the operator's ingest worker runs it)",
      ...admin,
      body: ingestBody,
      answers: { 202: ingestAnswer },
      errors: [...CHANGE],
    },
    {
      method: 'get',
      path: '/api/admin/ingests/:id',
      summary: "An ingest run's progress",
      ...admin,
      params: { id: ingestRunId },
      answers: { 200: ingestAnswer },
      errors: [...CONSOLE, 'bad_request', 'not_found'],
    },
    {
      method: 'get',
      path: '/api/admin/scheduled',
      summary: 'Items scheduled for release, soonest first',
      ...admin,
      answers: { 200: scheduledList },
      errors: CONSOLE,
    },
    {
      method: 'get',
      path: '/api/admin/queues',
      summary: 'The encode, ingest, mail and purge queues: counts, running, waiting and failed jobs',
      ...admin,
      answers: { 200: queuesPage },
      errors: CONSOLE,
    },
    queueAction('/pause', 'Pause a queue: its workers claim nothing new (not the purge queue)'),
    queueAction('/resume', 'Resume a paused queue'),
    queueAction('/retry-failed', 'Queue every failed job again (a mail whose address was refused stays)'),
    queueAction('/jobs/:id/retry', 'Retry a failed job, or try one waiting to retry now', true),
    queueAction('/jobs/:id/cancel', 'Cancel a job that has not started (not a purge)', true),
    change('/api/admin/maintenance', 'Maintenance mode on (with a message for members) or off (owner)', maintenanceBody, siteStatus),
    change('/api/admin/teasers', 'Tease a scheduled item on "coming soon", or stop', teaseBody, teaseAnswer),
  ],
};
