export { createPostgresSessionStore } from './postgres-session-store.js';
export type { PostgresSessionStoreOptions } from './postgres-session-store.js';
export { migrateSessionSchema, SCHEMA_VERSION } from './migrate-session-schema.js';
