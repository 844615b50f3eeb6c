// The figures the dashboard shows as words and numbers, and the formats its parts share.

// ISO 4217 numeric codes the billing providers send; anything else is shown by its number.
export const CURRENCIES: Record<number, string> = { 36: 'AUD', 124: 'CAD', 392: 'JPY', 756: 'CHF', 826: 'GBP', 840: 'USD', 978: 'EUR' };

export const moneyFormat = (code: number) => {
  const currency = CURRENCIES[code];
  const format = currency ? new Intl.NumberFormat('en', { style: 'currency', currency }) : undefined;
  return (cents: number) => (format ? format.format(cents / 100) : `${(cents / 100).toFixed(2)} (currency ${code})`);
};

export const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

export const ago = (ms: number, now: number) => {
  const minutes = Math.max(0, Math.round((now - ms) / 60_000));
  if (minutes < 90) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  const hours = Math.round(minutes / 60);
  return hours < 48 ? `${hours} hours` : `${Math.round(hours / 24)} days`;
};

export function Figures({ items }: { items: [string, string | number, string?][] }) {
  return (
    <dl className="admin-figures">
      {items.map(([name, value, tone]) => (
        <div key={name} className={tone ? `admin-figure admin-figure-${tone}` : 'admin-figure'}>
          <dt>{name}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
