import type { Family } from '@media-site/storage/paths';

/**
 * What a family's files are and what a request for one may ask. The one place that says so: the
 * access policy, the representation choice and the locked-page redirect all read this table.
 * (With STORAGE=s3 every family is in the bucket; how each is answered from it: representation.ts.)
 */
export interface FamilyRules {
  /**
   * Who may read it (spec §7): anyone; a member with an active membership; or a member who bought
   * that VOD (`vod/{path}/…`: a rendition needs what its original needs).
   */
  readers: 'public' | 'members' | 'buyers';
  /** `?w=`: resized variants (images only). */
  variants: boolean;
  /**
   * How the file is named to the browser. `download`: an attachment under its own name. `played`:
   * `inline` in the page, with a name for "save video as" (`{folder}-720p.mp4`), and the rendition
   * download names `{base}_{label}.mp4` as attachments. `none`: no Content-Disposition.
   */
  naming: 'none' | 'download' | 'played';
  /** `photos/{folder}/{folder}.zip`: the whole set as one ZIP. */
  setZip: boolean;
  /** The site page whose lock (Join / Sign in / Buy) a refused browser navigation is sent to. */
  lockedPage: string | null;
}

// Previews (poster, seek-bar sprite and track, trailer) are public like thumbnails (playback-layout.ts).
const thumbnails: FamilyRules = { readers: 'public', variants: true, naming: 'none', setZip: false, lockedPage: null };
const previews: FamilyRules = { ...thumbnails, variants: false };

export const FAMILY_RULES: Readonly<Record<Family, FamilyRules>> = {
  photosthumbs: thumbnails,
  videothumbs: thumbnails,
  vodthumbs: thumbnails,
  freephotos: thumbnails,
  videopreviews: previews,
  vodpreviews: previews,
  photos: { readers: 'members', variants: true, naming: 'none', setZip: true, lockedPage: '/photos/' },
  video: { readers: 'members', variants: false, naming: 'download', setZip: false, lockedPage: '/video/' },
  videorenditions: { readers: 'members', variants: false, naming: 'played', setZip: false, lockedPage: '/video/' },
  vod: { readers: 'buyers', variants: false, naming: 'download', setZip: false, lockedPage: '/vod/' },
  vodrenditions: { readers: 'buyers', variants: false, naming: 'played', setZip: false, lockedPage: '/vod/' },
};
