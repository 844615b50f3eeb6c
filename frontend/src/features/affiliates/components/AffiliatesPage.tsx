// The billing provider hosts the webmaster programme; these addresses are placeholders to be replaced
// by the provider's real signup and account pages.
const PROVIDER_SIGNUP_URL = 'https://webmasters.billing-provider.example/signup';
const PROVIDER_LOAD_URL = 'https://webmasters.billing-provider.example/account';
const MAX_LENGTH = 15;

const LOAD_FIELDS = [
  { name: 'currentId', label: 'Current ID', type: 'text', autoComplete: 'off' },
  { name: 'username', label: 'Username', type: 'text', autoComplete: 'username' },
  { name: 'password', label: 'Password', type: 'password', autoComplete: 'current-password' },
];

export function AffiliatesPage() {
  return (
    <article className="prose">
      <h1>Affiliates</h1>
      <p>Webmasters earn a share of every membership they refer. Accounts are opened and paid by our billing provider.</p>
      <section aria-labelledby="affiliate-signup">
        <h2 id="affiliate-signup">Create an affiliate account</h2>
        <form method="post" action={PROVIDER_SIGNUP_URL}>
          <input type="hidden" name="program" value="media-site" />
          <button type="submit" className="button button-primary">
            Sign up with the billing provider
          </button>
        </form>
      </section>
      <section aria-labelledby="affiliate-load">
        <h2 id="affiliate-load">Load your existing data</h2>
        <form method="post" action={PROVIDER_LOAD_URL} className="form">
          {LOAD_FIELDS.map((field) => (
            <div className="field" key={field.name}>
              <label htmlFor={`affiliate-${field.name}`}>{field.label}</label>
              <input
                id={`affiliate-${field.name}`}
                name={field.name}
                type={field.type}
                maxLength={MAX_LENGTH}
                autoComplete={field.autoComplete}
                required
              />
            </div>
          ))}
          <button type="submit" className="button">
            Load
          </button>
        </form>
      </section>
    </article>
  );
}
