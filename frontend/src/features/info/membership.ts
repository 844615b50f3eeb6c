import { JOIN_FEE } from '../../config/site';

/** What a membership gives: listed on /join before the form, and the pitch of home's hero. */
export const MEMBER_GETS = [
  'Every photo set in full size, with a ZIP of the whole set',
  'Every video played right in the page, in the quality your connection allows',
  'Downloads that resume where they stopped',
];

/** Home's one-line pitch to visitors: the same promises, in one breath. */
export const MEMBERSHIP_PITCH = `Full-size photo sets, videos that play right in the page and downloads that resume: ${JOIN_FEE} for 30 days.`;
