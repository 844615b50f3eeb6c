import { useEffect, useRef, useState } from 'react';

// Widths the media service renders on `?w=` (one list, shared with the server contract).
export const VARIANT_WIDTHS = [160, 320, 480, 640, 960, 1280] as const;
const VARIANT_PATH = /^\/members\/(?:photosthumbs|videothumbs|vodthumbs)\//;
// Spec §9: images start loading 100px before they scroll into view.
const OFFSET = '100px';

export function variantSrcSet(src: string): string | undefined {
  if (!VARIANT_PATH.test(src)) return undefined;
  return VARIANT_WIDTHS.map((width) => `${src}?w=${width} ${width}w`).join(', ');
}

interface LazyImageProps {
  src: string;
  alt: string;
  width?: number;
  height?: number;
  sizes?: string;
  className?: string;
}

// The box keeps the image's aspect ratio before and after loading, so nothing below it moves.
export function LazyImage({ src, alt, width = 640, height = 480, sizes = '(min-width: 1024px) 20vw, 50vw', className }: LazyImageProps) {
  const ref = useRef<HTMLDivElement>(null);
  const [visible, setVisible] = useState(() => typeof IntersectionObserver === 'undefined');
  // Until the picture is in (or has failed), the box shows a skeleton (styles.css); then it stops.
  // Kept per source: a box given another picture shows the skeleton again until that one is in.
  const [settledSrc, setSettledSrc] = useState<string | null>(null);

  useEffect(() => {
    const element = ref.current;
    if (visible || !element) return undefined;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          setVisible(true);
          observer.disconnect();
        }
      },
      { rootMargin: OFFSET },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [visible]);

  const srcSet = variantSrcSet(src);
  return (
    <div
      ref={ref}
      className={['lazy-image', settledSrc === src && 'is-settled', className].filter(Boolean).join(' ')}
      style={{ aspectRatio: `${width} / ${height}` }}
    >
      {visible && (
        <img
          onLoad={() => setSettledSrc(src)}
          onError={() => setSettledSrc(src)}
          src={srcSet ? `${src}?w=${closestWidth(width)}` : src}
          srcSet={srcSet}
          sizes={srcSet ? sizes : undefined}
          alt={alt}
          width={width}
          height={height}
          decoding="async"
        />
      )}
    </div>
  );
}

function closestWidth(width: number): number {
  return VARIANT_WIDTHS.find((candidate) => candidate >= width) ?? 1280;
}
