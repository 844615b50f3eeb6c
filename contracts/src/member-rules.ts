/** Spec §4: what a new member may choose; the payment form, sign-in and the operator CLI share it. */
export const USERNAME = /^\w{3,15}$/;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 64;
/**
 * Linear time: the domain's labels exclude the dot, so no two quantifiers can trade characters (the
 * old `[^\s@]+\.[^\s@]+` took quadratic time on "a@" + many dots + " ", 0.35 s on a 15.9 KB value). Callers check
 * EMAIL_MAX first anyway. An address reaches a mail's To header, so none holds a control character
 * (a line break would start a header of its own) or what makes one header value a list, a group or a
 * display name (`" , : ; < > ( ) [ ] \`, never part of an unquoted address).
 */
export const EMAIL =
  // eslint-disable-next-line no-control-regex
  /^[^\s@\u0000-\u001f\u007f-\u009f",:;<>()[\]\\]+@[^\s@.\u0000-\u001f\u007f-\u009f",:;<>()[\]\\]+(?:\.[^\s@.\u0000-\u001f\u007f-\u009f",:;<>()[\]\\]+)+$/;

/**
 * What the mail layer sends to: one address and nothing else, by the same characters as EMAIL but
 * without its demand for a dotted domain (an operator's `root@localhost`). The outbox and its sender
 * refuse any other `to` (db/src/mail/headers.ts).
 */
// eslint-disable-next-line no-control-regex
export const PLAIN_ADDRESS = /^[^\s@\u0000-\u001f\u007f-\u009f",:;<>()[\]\\]+@[^\s@\u0000-\u001f\u007f-\u009f",:;<>()[\]\\]+$/;
export const EMAIL_MAX = 254;
export const DISABLE_REASON_MAX = 200;
