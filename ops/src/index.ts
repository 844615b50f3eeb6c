export { ensureDemo, type EnsureDemoOptions, type EnsureDemoResult } from './demo';
export { DEMO_MEMBER, ensureDemoMember } from './seed/demo-member';
export { buildDemoCatalog, type DemoCatalog } from './seed/catalog';
export { seedDemoCatalog, type SeedSummary } from './seed/demo-rows';
export { writeMediaTree, type MediaTreeOptions, type MediaTreeSummary } from './seed/media';
export { seedScale, type ScaleSummary } from './seed/scale';
export { wipeCatalog } from './seed/tables';
export { BUCKET_SEED_MARKER, seedBucket, type BucketSeedOptions, type BucketSeedResult } from './seed/bucket';
