import { Link } from 'react-router-dom';

export function NotFoundPage() {
  return (
    <section>
      <h1>Page not found</h1>
      <p>
        There is nothing at this address. <Link to="/">Go to the home page</Link>.
      </p>
    </section>
  );
}
