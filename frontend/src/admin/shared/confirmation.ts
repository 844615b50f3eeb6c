// Sensitive console changes (passkeys, admins, roles, secrets) answer 403 confirm_required until the
// admin has proved it is them again in this session. Any screen's call that meets it asks the one
// ConfirmDialog the console shows (askConfirmation), then retries once (useAdminCall).

type Asker = (done: (confirmed: boolean) => void) => void;

let asker: Asker | null = null;

/** The dialog registers itself while it is mounted. */
export function handleConfirmations(ask: Asker): () => void {
  asker = ask;
  return () => {
    if (asker === ask) asker = null;
  };
}

/** True once the admin confirmed (a fresh code or passkey), false when they cancelled. */
export function askConfirmation(): Promise<boolean> {
  const ask = asker;
  if (!ask) return Promise.resolve(false);
  return new Promise((resolve) => ask(resolve));
}
