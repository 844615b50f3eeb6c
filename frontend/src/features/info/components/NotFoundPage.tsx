import { Link } from 'react-router-dom';
import { useNoIndex } from '../../../hooks/useNoIndex';

export function NotFoundPage() {
  useNoIndex();
  return (
    <section>
      <h1>Page not found</h1>
      <p>
        There is nothing at this address. <Link to="/">Go to the home page</Link>.
      </p>
    </section>
  );
}
