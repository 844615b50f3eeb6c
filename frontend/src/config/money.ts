/** A price as the site shows it: `$24.99` (MySQL's DECIMAL may arrive as a string). */
export function formatPrice(price: number | string): string {
  const value = Number(price);
  return Number.isFinite(value) ? `$${value.toFixed(2)}` : String(price);
}
