import { BULK_MAX } from '@media-site/contracts/content-bulk-limits';
import type { ContentPage } from '@media-site/contracts/admin-content';
import { contentApi, type ContentQuery } from '../shared/api';
import { sitePath } from './format';

type Run = <T>(call: () => Promise<T>) => Promise<T | undefined>;

/** Every item the search matches (models aside), across its pages, up to what one change takes (BULK_MAX). */
async function matchingPaths(query: ContentQuery, run: Run): Promise<{ paths: string[]; more: boolean } | undefined> {
  const paths: string[] = [];
  let more = true;
  for (let page = 1; more && paths.length < BULK_MAX; page += 1) {
    const answer: ContentPage | undefined = await run(() => contentApi.find({ ...query, page }));
    if (!answer) return undefined;
    paths.push(...answer.items.filter((item) => item.type !== 'model').map(sitePath));
    more = answer.more;
  }
  return { paths: paths.slice(0, BULK_MAX), more: more || paths.length > BULK_MAX };
}

/** "Select all matching": the checkboxes of every page of this search, at most BULK_MAX, and a sentence saying how many. */
export function SelectAllMatching({
  query,
  busy,
  run,
  onChosen,
}: {
  query: ContentQuery;
  busy: boolean;
  run: Run;
  onChosen: (paths: string[], text: string) => void;
}) {
  const choose = async () => {
    const found = await matchingPaths(query, run);
    if (!found) return;
    onChosen(
      found.paths,
      found.more
        ? `Selected the first ${BULK_MAX} matching items: one change takes at most ${BULK_MAX}.`
        : `Selected all ${found.paths.length} matching items.`,
    );
  };
  return (
    <p>
      <button type="button" className="admin-secondary" disabled={busy} onClick={() => void choose()}>
        Select all matching (up to {BULK_MAX})
      </button>
    </p>
  );
}
