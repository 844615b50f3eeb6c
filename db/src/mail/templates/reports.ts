// Filled by issue 22's mail work.
export {};
