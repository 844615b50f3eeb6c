export async function signOut(): Promise<void> {
  await fetch('/api/logout', { method: 'POST', headers: { Accept: 'application/json' } });
}
