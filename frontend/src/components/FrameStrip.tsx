import { LazyImage } from './LazyImage';

// The four stills every video and VOD has (spec §2: suffixes 02, 05, 10, 15).
export const FRAME_SUFFIXES = ['02', '05', '10', '15'] as const;

export function FrameStrip({ base, folder, title }: { base: 'videothumbs' | 'vodthumbs'; folder: string; title: string }) {
  const dir = encodeURIComponent(folder);
  return (
    <ul className="grid grid-frames">
      {FRAME_SUFFIXES.map((suffix) => (
        <li key={suffix}>
          <LazyImage
            src={`/members/${base}/${dir}/${dir}_${suffix}.jpg`}
            alt={`${title}, still ${suffix}`}
            sizes="(min-width: 1024px) 25vw, 50vw"
          />
        </li>
      ))}
    </ul>
  );
}
