import { EMAIL_MAX, PLAIN_ADDRESS } from '@media-site/contracts/member-rules';

// What reaches a mail's headers. Inputs refuse line breaks and control characters where they are
// typed (EMAIL, titles, names); this is the second wall, in the outbox and again in its sender, for
// values that came another way (an older row, a template, configuration). nodemailer parses a To
// such as "a@b.c\r\nBcc: x@y.z" as a group and sends to x@y.z alone: a `to` is one plain address
// or the mail is refused.

/** Why a mail to an address that is not one plain address was refused (its outbox row's last_error). */
export const ADDRESS_REFUSED = 'refused: the address is not one plain e-mail address (a line break, control character, list or group)';

export const isPlainAddress = (to: string): boolean => to.length <= EMAIL_MAX && PLAIN_ADDRESS.test(to);

/** A header's text on one line: each run of control characters, line breaks included, becomes one space. */
// eslint-disable-next-line no-control-regex
export const oneLine = (text: string): string => text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim();
