import { Link } from 'react-router-dom';

/** An item's tags under its title, each a link to every item with that tag (/search?tag=…). */
export function TagList({ tags }: { tags: readonly string[] | undefined }) {
  if (!tags?.length) return null;
  return (
    <ul className="tag-list" aria-label="Tags">
      {tags.map((tag) => (
        <li key={tag}>
          <Link to={`/search?${new URLSearchParams({ tag }).toString()}`} className="tag-link">
            #{tag}
          </Link>
        </li>
      ))}
    </ul>
  );
}
