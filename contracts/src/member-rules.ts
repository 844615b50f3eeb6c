/** Spec §4: what a new member may choose; the payment form, sign-in and the operator CLI share it. */
export const USERNAME = /^[A-Za-z0-9_]{3,15}$/;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 64;
export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const EMAIL_MAX = 254;
export const DISABLE_REASON_MAX = 200;
