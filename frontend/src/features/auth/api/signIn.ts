import { postJson } from '../../api/fetchJson';
import type { Member } from '../../../hooks/useSession';

export function signIn(username: string, password: string): Promise<Member> {
  return postJson<Member>('/api/login', { username, password });
}
