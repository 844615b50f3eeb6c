import { Link } from 'react-router-dom';
import { SavedCard } from './SavedCard';
import { useSaved } from './store';

/** How many saved items the home page shows; the rest are on /my-list. */
export const HOME_ROW_ITEMS = 10;

/** "My list" on the home page, beside Continue watching: nothing for visitors or an empty list. */
export function SavedRow() {
  const saved = useSaved();
  if (saved.status !== 'ready' || saved.items.length === 0) return null;
  return (
    <section className="continue-watching" aria-labelledby="my-list-row">
      <h2 id="my-list-row">
        My list{' '}
        <Link to="/my-list" className="row-more">
          See all ({saved.items.length})
        </Link>
      </h2>
      <ul className="continue-row">
        {saved.items.slice(0, HOME_ROW_ITEMS).map((item) => (
          <SavedCard key={`${item.type}/${item.key}`} item={item} />
        ))}
      </ul>
    </section>
  );
}
