import { composeMail, siteLink, type MailSite, type RenderedMail } from '../compose';

// Mails to operator console admins (at the e-mail address an owner gave them, if any).

/** A passkey was added to the account: the admin hears of it, in case it was not them. */
export function passkeyAddedMail(site: MailSite, m: { admin: string; passkey: string; address: string; at: string }): RenderedMail {
  return composeMail(site, 'A passkey was added to your console account', `Hello ${m.admin},`, [
    `A passkey was added to your operator console account "${m.admin}".`,
    {
      rows: [
        ['Passkey', m.passkey],
        ['When', m.at],
        ['From address', m.address || 'the operator CLI'],
      ],
    },
    'If this was not you, someone may hold your console session: ask an owner to run `admin totp ' +
      m.admin +
      '` now (a new code secret; every passkey revoked and every session ended), and review the audit log.',
    { link: siteLink(site, '/admin/passkeys'), label: 'Your passkeys' },
  ]);
}
