import { SITE_EMAIL } from '../../../config/site';

// Invented placeholder names for the ten models whose unreleased sets are offered privately.
const MODELS = Array.from({ length: 10 }, (_, index) => `Model P${index + 1}`);

export function PrivateSalesPage() {
  return (
    <article className="prose">
      <h1>Private Sales</h1>
      <p>The following ten models have unreleased content available for private purchase:</p>
      <ol className="columns-list">
        {MODELS.map((model) => (
          <li key={model}>{model}</li>
        ))}
      </ol>
      <p>
        To inquire, e-mail <a href={`mailto:${SITE_EMAIL}?subject=Private%20sales`}>{SITE_EMAIL}</a> with the model&apos;s name.
      </p>
    </article>
  );
}
