// Invented fellow-site names and addresses; banners are drawn in CSS so no third-party image loads.
const SITES = [
  { name: 'Strength Gallery', tagline: 'Portraits of strength', href: 'https://strength-gallery.example/' },
  { name: 'Iron Portraits', tagline: 'Studio photography', href: 'https://iron-portraits.example/' },
  { name: 'Power Studio', tagline: 'Fitness video archive', href: 'https://power-studio.example/' },
  { name: 'Summit Athletes', tagline: 'Competition coverage', href: 'https://summit-athletes.example/' },
];

export function LinksPage() {
  return (
    <article>
      <h1>Links</h1>
      <p>Fellow sites we recommend:</p>
      <ul className="banners">
        {SITES.map((site) => (
          <li key={site.href}>
            <a className="banner" href={site.href} rel="noopener" target="_blank">
              <span className="banner-name">{site.name}</span>
              <span className="banner-tagline">{site.tagline}</span>
            </a>
          </li>
        ))}
      </ul>
    </article>
  );
}
