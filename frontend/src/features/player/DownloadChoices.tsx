import { DownloadButton } from '../auth/components/DownloadButton';
import type { DownloadChoice } from './api/playback';

const KB = 1000;
const MB = KB * 1000;
const GB = MB * 1000;

/** One decimal under 10 (`1.2 GB`, `9.5 MB`), none from 10 up (`640 MB`, `12 GB`); a unit up once a value would round to 1000. */
export function formatBytes(bytes: number): string {
  const units: [number, string][] = [
    [GB, 'GB'],
    [MB, 'MB'],
    [KB, 'KB'],
  ];
  for (const [size, unit] of units) {
    if (bytes >= size * 0.9995 || unit === 'KB') {
      const value = bytes / size;
      const oneDecimal = Math.round(value * 10) / 10;
      return oneDecimal < 10 ? `${oneDecimal.toFixed(1)} ${unit}` : `${Math.round(value)} ${unit}`;
    }
  }
  return `${bytes} B`;
}

export function choiceLabel(choice: DownloadChoice): string {
  return choice.bytes === null ? choice.label : `${choice.label} (${formatBytes(choice.bytes)})`;
}

/**
 * "Download: Original (1.2 GB) · 1080p (640 MB) · 720p (…)": each size a button that asks the bff
 * for a signed link on click (resumable, 48 h), like the page's own Download button. Nothing when
 * there is no choice to make (the original alone, size unknown: the page's Download button is it).
 */
export function DownloadChoices({ downloads }: { downloads: DownloadChoice[] | undefined }) {
  if (!downloads?.length || (downloads.length === 1 && downloads[0]!.bytes === null)) return null;
  return (
    <div className="download-choices" role="group" aria-label="Download sizes">
      <span className="download-choices-title">Download:</span>
      <ul>
        {downloads.map((choice) => (
          <li key={choice.path}>
            <DownloadButton path={choice.path} label={choiceLabel(choice)} className="button button-small" />
          </li>
        ))}
      </ul>
    </div>
  );
}
