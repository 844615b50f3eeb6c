import { useEffect, useRef, useState } from 'react';
import { CARD_HEIGHT, CARD_SIZES, CARD_WIDTH, thumbnailImage } from '../firstScreen/thumbnailUrls';

// Spec §9: images start loading 100px before they scroll into view.
const OFFSET = '100px';

interface LazyImageProps {
  src: string;
  alt: string;
  width?: number;
  height?: number;
  sizes?: string;
  className?: string;
}

// The box keeps the image's aspect ratio before and after loading, so nothing below it moves.
export function LazyImage({ src, alt, width = CARD_WIDTH, height = CARD_HEIGHT, sizes = CARD_SIZES, className }: LazyImageProps) {
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

  const image = thumbnailImage(src, width, sizes);
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
          src={image.src}
          srcSet={image.srcSet}
          sizes={image.sizes}
          alt={alt}
          width={width}
          height={height}
          decoding="async"
        />
      )}
    </div>
  );
}
