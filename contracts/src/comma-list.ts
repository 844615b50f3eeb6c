/** The entries of a comma-separated value ("a, b,,c" → a, b, c): trimmed, empty ones dropped. */
export function commaList(value: string): string[] {
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
}
