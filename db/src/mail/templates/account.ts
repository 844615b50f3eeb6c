import { composeMail, siteLink, type MailSite, type RenderedMail } from '../compose';

// The account's own mails: a password reset link, the notice after a password change, and the two
// sides of an e-mail change (the confirm link to the new address, notices to the old one). Links
// are built from the configured site URL; the tokens ride in the fragment (#token=), which browsers
// send neither to the server nor in a Referer.

const greeting = (username: string) => `Hello ${username},`;

/** The reset link for one account (an address shared by several accounts gets one mail each, naming its username). */
export function passwordResetMail(site: MailSite, m: { username: string; token: string }): RenderedMail {
  return composeMail(site, 'Reset your password', greeting(m.username), [
    `Someone (we hope you) asked to reset the password of the account "${m.username}" at ${site.name}.`,
    { link: siteLink(site, `/reset-password#token=${m.token}`), label: 'Choose a new password' },
    'The link works once, for one hour. If you did not ask for it, ignore this mail: your password stays as it is.',
  ]);
}

/** After any password change (signed in, or through a reset link): every session has ended. */
export function passwordChangedMail(site: MailSite, m: { username: string }): RenderedMail {
  return composeMail(site, 'Your password was changed', greeting(m.username), [
    `The password of the account "${m.username}" was just changed. Every browser that was signed in has been signed out, and earlier download links no longer work.`,
    'If this was not you, ask for a new password at once and contact support:',
    { link: siteLink(site, '/forgot-password'), label: 'Reset your password' },
  ]);
}

/** To the new address: nothing changes until this link is opened. */
export function emailConfirmMail(site: MailSite, m: { username: string; newEmail: string; token: string }): RenderedMail {
  return composeMail(site, 'Confirm your new e-mail address', greeting(m.username), [
    `Please confirm that ${m.newEmail} is the new e-mail address of the account "${m.username}" at ${site.name}.`,
    { link: siteLink(site, `/confirm-email#token=${m.token}`), label: 'Confirm this address' },
    'The link works once, for 24 hours. If you did not ask for this, ignore this mail.',
  ]);
}

/** To the old address when a change is asked for: the owner hears of it before it happens. */
export function emailChangeRequestedMail(site: MailSite, m: { username: string; newEmail: string }): RenderedMail {
  return composeMail(site, 'A change of your e-mail address was requested', greeting(m.username), [
    `Someone signed in to the account "${m.username}" asked to change its e-mail address to ${m.newEmail}. It changes only when the link sent to that address is opened.`,
    'If this was not you, change your password now:',
    { link: siteLink(site, '/account'), label: 'Your account' },
  ]);
}

/** To the old address once the new one is confirmed: the last mail this address gets for the account. */
export function emailChangedMail(site: MailSite, m: { username: string; newEmail: string }): RenderedMail {
  return composeMail(site, 'Your e-mail address was changed', greeting(m.username), [
    `The e-mail address of the account "${m.username}" is now ${m.newEmail}. Mail for this account goes there from now on.`,
    'If this was not you, reset your password and contact support:',
    { link: siteLink(site, '/forgot-password'), label: 'Reset your password' },
  ]);
}
