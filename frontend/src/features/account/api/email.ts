import type { EmailConfirmed, MessageAnswer } from '@media-site/contracts/member-api';
import { postForAnswer } from '../../auth/api/passwordReset';

/** 202: a link went to the new address; nothing changes until it is opened. */
export async function requestEmailChange(email: string, currentPassword: string): Promise<string> {
  return (await postForAnswer<MessageAnswer>('/api/account/email', { email, currentPassword })).message;
}

/** The link's token (no session needed): the address the account has now. */
export async function confirmEmailChange(token: string): Promise<string> {
  return (await postForAnswer<EmailConfirmed>('/api/account/email/confirm', { token })).email;
}
