/**
 * The catalog generation's pub/sub channel: whoever bumps the generation (the bff on a takedown, the
 * operator CLI after an ingest) publishes the new number here so every bff drops its cached listings
 * at once. The number itself lives in the database (`bumpGeneration` in db), the truth all poll.
 */
export function generationChannel(keyPrefix: string): string {
  return `${keyPrefix}catalog:generation`;
}
