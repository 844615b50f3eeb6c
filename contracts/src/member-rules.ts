/** Spec §4: what a new member may choose; the payment form, sign-in and the operator CLI share it. */
export const USERNAME = /^\w{3,15}$/;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 64;
/**
 * Linear time: the domain's labels exclude the dot, so no two quantifiers can trade characters (the
 * old `[^\s@]+\.[^\s@]+` took quadratic time on "a@" + many dots + " "; issue 19). Callers check
 * EMAIL_MAX first anyway.
 */
export const EMAIL = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/;
export const EMAIL_MAX = 254;
export const DISABLE_REASON_MAX = 200;
