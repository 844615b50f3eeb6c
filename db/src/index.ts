export { createKnex, clientOf, databaseAnswers, isSqlite, isUniqueViolation, type DbClient, type KnexOptions } from './knex';
export { createReadPool, parseReadUrls, isUnreachable, type ReadPool, type ReadPoolOptions, type ReplicaState } from './read-pool';
export { publishGeneration } from './publish';
export { parseSentinels, redisHaProblem, sentinelOptions, type RedisHaSettings, type SentinelAddress } from './redis-ha';
export { migrateLatest, migrateRollbackAll, migrateUpTo } from './migrate';
export { foldForSearch, modelInitial, searchText, SEARCH_TEXT_MAX } from './initial';
export { readGeneration, bumpGeneration } from './generation';
export { RuleError } from './rule-error';
export { databaseUrlFromEnv, defaultDataDir, mediaRootFromEnv, repoRoot } from './cli/env';
