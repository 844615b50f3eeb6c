import { useState } from 'react';
import { HttpError } from '../../api/fetchJson';
import { startDownload } from '../api/downloadLink';

function problem(error: unknown): string {
  if (error instanceof HttpError && error.status === 401) return 'Your session has ended. Sign in again to download.';
  if (error instanceof HttpError && error.status === 403) return 'This download is not open to your account.';
  // The bff signs no link for a taken-down item (404, as the catalog answers for it).
  if (error instanceof HttpError && (error.status === 404 || error.status === 410)) return 'This item has been removed from the site.';
  return 'The download link could not be made. Try again.';
}

/** "Owned – Download" and the like: asks the bff for a signed link, then downloads; says so when it cannot. */
export function DownloadButton({ path, label, className = 'button button-primary' }: { path: string; label: string; className?: string }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  return (
    <>
      <button
        type="button"
        className={className}
        disabled={busy}
        onClick={() => {
          setBusy(true);
          setError('');
          startDownload(path)
            .catch((err: unknown) => setError(problem(err)))
            .finally(() => setBusy(false));
        }}
      >
        {label}
      </button>
      {error && (
        <span className="status status-error" role="alert">
          {error}
        </span>
      )}
    </>
  );
}
