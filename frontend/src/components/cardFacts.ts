import { formatTime } from '../config/time';

/** A small badge on a card: what it shows, and what a screen reader hears before it. */
export interface CardFact {
  text: string;
  /** Read before `text`, not shown ("Duration" before "12:34"). */
  label?: string;
}

/** `24 photos`, `1 photo`; nothing when the listing did not say. */
export function photoCountFact(count: number | null | undefined): CardFact | undefined {
  if (count === null || count === undefined) return undefined;
  return { text: count === 1 ? '1 photo' : `${count} photos` };
}

/** `12:34` or `1:02:03`; nothing while the running time is unknown (not measured yet). */
export function durationFact(seconds: number | null | undefined): CardFact | undefined {
  if (!seconds || seconds <= 0) return undefined;
  return { text: formatTime(seconds), label: 'Duration' };
}

/** The facts that are known, in order. */
export function knownFacts(...facts: Array<CardFact | string | undefined>): CardFact[] {
  return facts.flatMap((fact) => (fact === undefined ? [] : [typeof fact === 'string' ? { text: fact } : fact]));
}
