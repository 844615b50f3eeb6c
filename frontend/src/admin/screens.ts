import type { AdminRole } from './shared/api';

export type Screen =
  | 'dashboard'
  | 'stats'
  | 'audit'
  | 'members'
  | 'prices'
  | 'reports'
  | 'content'
  | 'ingest'
  | 'queues'
  | 'coming-soon'
  | 'admins'
  | 'passkeys';

/** Each screen's name in the menu, its heading and the page title. */
export const TITLES: Record<Screen, string> = {
  dashboard: 'Dashboard',
  stats: 'Stats',
  audit: 'Audit log',
  members: 'Members',
  prices: 'Prices',
  reports: 'Reports',
  content: 'Content',
  admins: 'Admins',
  ingest: 'Ingest',
  queues: 'Queues',
  'coming-soon': 'Coming soon',
  passkeys: 'Your passkeys',
};

/**
 * What each role may see, its first screen first (the owner's is the dashboard): the same table as
 * db/src/admin/roles.ts; the API refuses the rest.
 */
const SCREENS: Record<AdminRole, readonly Screen[]> = {
  owner: [
    'dashboard',
    'stats',
    'audit',
    'members',
    'prices',
    'reports',
    'content',
    'ingest',
    'queues',
    'coming-soon',
    'admins',
    'passkeys',
  ],
  moderator: ['reports', 'content', 'stats', 'ingest', 'queues', 'coming-soon', 'dashboard', 'passkeys'],
  support: ['members', 'prices', 'content', 'stats', 'dashboard', 'passkeys'],
};

export const screensOf = (role: AdminRole): readonly Screen[] => SCREENS[role];

/** The address names the screen, so a reload, a bookmark and Back keep it. */
export const screenPath = (screen: Screen) => `/admin/${screen}`;
