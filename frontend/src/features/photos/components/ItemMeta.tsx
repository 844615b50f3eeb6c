import { Link } from 'react-router-dom';

/** Model (linked to the model's page), upload date and, for a set, how many photos: under a title. */
export function ItemMeta({ modelname, datetoupload, count }: { modelname: string; datetoupload: string; count?: number }) {
  return (
    <p className="item-meta">
      <Link to={`/models/${encodeURIComponent(modelname)}`}>{modelname}</Link>
      <span aria-hidden="true"> · </span>
      <span>
        Uploaded: <time dateTime={datetoupload}>{datetoupload}</time>
      </span>
      {count === undefined ? null : (
        <>
          <span aria-hidden="true"> · </span>
          <span>{count === 1 ? '1 photo' : `${count} photos`}</span>
        </>
      )}
    </p>
  );
}
