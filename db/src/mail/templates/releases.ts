import { composeMail, siteLink, type MailSite, type RenderedMail } from '../compose';
import { oneLine } from '../headers';

// "New from your models": the one mail a member who switched it on gets when items of the models
// they follow are released. It names each item, links to its page, and says how to stop it; the
// same stop link rides in the List-Unsubscribe header (RFC 8058), which mail apps show as a button.

export interface ReleasedItem {
  /** 'Photo set', 'Video', 'VOD'. */
  kind: string;
  title: string;
  modelname: string;
  /** The item's page on the site ('/photos/folder'). */
  path: string;
}

/** At most this many items are named; the rest are counted ("and 3 more"). */
export const RELEASE_MAIL_ITEMS = 10;

export function releaseDigestMail(
  site: MailSite,
  m: { username: string; items: readonly ReleasedItem[]; unsubscribe: string },
): RenderedMail {
  const shown = m.items.slice(0, RELEASE_MAIL_ITEMS);
  const first = m.items[0];
  const subject =
    m.items.length === 1 && first
      ? `New from ${oneLine(first.modelname)}: ${oneLine(first.title)}`
      : `${m.items.length} new releases from models you follow`;
  const more = m.items.length - shown.length;
  return composeMail(site, subject, `Hello ${m.username},`, [
    m.items.length === 1 ? 'A model you follow has something new:' : 'Models you follow have something new:',
    {
      list: shown.map((item) => ({
        link: siteLink(site, item.path),
        label: `${item.kind}: ${oneLine(item.title)} (${oneLine(item.modelname)})`,
      })),
    },
    ...(more > 0 ? [`And ${more} more: see "New from your models" on the home page.`] : []),
    'You get this mail because you switched on release mails on your account page. One click stops them:',
    { link: m.unsubscribe, label: 'Stop release mails' },
  ]);
}
