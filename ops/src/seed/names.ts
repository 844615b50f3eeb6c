// Invented placeholder names. Chosen to exercise listings: many initials, spaces, apostrophes and
// letters outside ASCII (Ø and Ł do not decompose under NFD; É, Ë, Å do).
export const MODEL_NAMES: readonly string[] = [
  'Model A1',
  "Ava O'Neill",
  'Émilie Z3',
  'Zoë Q7',
  'Ørsted K2',
  'Bianca V4',
  'Brynn C8',
  "Cleo D'Arcy",
  'Dara Q5',
  'Delia M3',
  'Elsa M9',
  'Fenna R2',
  'Gaia T6',
  'Greta L1',
  'Hollis R7',
  'Ilse V3',
  'Juno K5',
  'Kaia B8',
  'Kit E4',
  'Lena H2',
  'Łucja P4',
  'Mara S6',
  'Model M2',
  'Nadia F9',
  'Noor A3',
  "Orla O'Hare",
  'Petra W5',
  'Quinn A7',
  'Renée C1',
  'Rhea S8',
  'Sable H3',
  'Signe Å6',
  'Tamsin C2',
  'Tove L9',
  'Una F4',
  'Vera B1',
  'Wren H5',
  'Xanthe M7',
  'Yara S2',
  'Zelda F6',
];

/**
 * Models with no content yet (made ahead of their first set): the site lists and answers them only
 * once one of their items is released (bff/src/routes/api/models), so these stay out of sight.
 */
export const EMPTY_MODEL_NAMES: readonly string[] = ['Model B3', 'Ines C0'];

export const TITLE_ADJECTIVES: readonly string[] = [
  'Morning',
  'Golden',
  'Iron',
  'Summer',
  'Quiet',
  'Studio',
  'Harbor',
  'Velvet',
  'Granite',
  'Sunset',
  'Winter',
  'Coastal',
  'Urban',
  'Bright',
  'Midnight',
  'Forest',
];

export const TITLE_NOUNS: readonly string[] = [
  'Session',
  'Lift',
  'Workout',
  'Portraits',
  'Stretch',
  'Routine',
  'Power',
  'Flex',
  'Shoot',
  'Training',
  'Balance',
  'Strength',
  'Pose',
  'Warmup',
  'Circuit',
];

/** Titles with LIKE wildcards, so search-escaping tests have rows to find (and not to find). */
export const WILDCARD_TITLES = { percent: '100% Focus', underscore: 'Under_Score Set' } as const;

/** Neutral tags of the demo and scale catalogs (content_tags), written as normalizeTags stores them. */
export const DEMO_TAGS: readonly string[] = [
  'studio',
  'outdoor',
  'beach',
  'city',
  'portrait',
  'black and white',
  'colour',
  'summer',
  'winter',
  'night',
  'fashion',
  'fitness',
];
