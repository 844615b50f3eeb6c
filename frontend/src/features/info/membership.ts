/** What a membership gives: listed on /join before the form, and the pitch of home's hero. */
export const MEMBER_GETS = [
  'Every photo set in full size, with a ZIP of the whole set',
  'Every video played right in the page, in the quality your connection allows',
  'Downloads that resume where they stopped',
];

/** Home's one-line pitch to visitors: the same promises, in one breath; the price once the server has said it. */
export const membershipPitch = (price: string | undefined): string =>
  `Full-size photo sets, videos that play right in the page and downloads that resume${price ? `: ${price}` : ''}.`;
