import { z } from 'zod';

/** SITE_NAME, read the same way by the bff (mail) and the operator CLI (the console's TOTP issuer). */
export const siteNameSetting = (description: string) => z.string().trim().min(1).max(60).default('Media Site').describe(description);
