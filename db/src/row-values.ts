// Column values as a driver hands them back (MySQL and SQLite differ: a BIGINT may come as a string),
// made into the types the repositories answer, with SQL NULL kept as null.

/** A nullable numeric column: null (or absent) stays null, anything else is a number. */
export const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** A nullable text column: null stays null, anything else is a string. */
export const strOrNull = (v: unknown): string | null => (v === null ? null : String(v));
