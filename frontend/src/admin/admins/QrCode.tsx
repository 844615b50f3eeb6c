import { useEffect, useState } from 'react';

/** One path of the dark modules, in module units, inside the 4-module quiet zone a QR code needs. */
function modulesPath(size: number, dark: (x: number, y: number) => boolean): string {
  let d = '';
  for (let y = 0; y < size; y += 1) for (let x = 0; x < size; x += 1) if (dark(x, y)) d += `M${x + 4} ${y + 4}h1v1h-1z`;
  return d;
}

/**
 * `text` as a QR code an authenticator app can scan: drawn here as one SVG path from the module
 * matrix `qrcode` computes (loaded only when a secret is shown, so the console's first load does
 * not carry it). Nothing leaves the browser; nothing is shown until it is made.
 */
export function QrCode({ text, label }: { text: string; label: string }) {
  const [drawn, setDrawn] = useState<{ size: number; d: string } | null>(null);
  useEffect(() => {
    let live = true;
    void import('qrcode')
      .then(({ create }) => {
        const { modules } = create(text, { errorCorrectionLevel: 'M' });
        // BitMatrix.get takes (row, column).
        const d = modulesPath(modules.size, (x, y) => Boolean(modules.get(y, x)));
        if (live) setDrawn({ size: modules.size, d });
      })
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [text]);
  if (!drawn) return null;
  const side = drawn.size + 8;
  return (
    <svg className="admin-qr" role="img" aria-label={label} viewBox={`0 0 ${side} ${side}`} width={224} height={224}>
      <rect width={side} height={side} fill="#fff" />
      <path d={drawn.d} fill="#000" />
    </svg>
  );
}
