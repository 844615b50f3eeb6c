/** The member's session cookie; the sessions themselves are db's (`@media-site/db/members`, sessions.ts). */
export const SESSION_COOKIE = 'sid';
