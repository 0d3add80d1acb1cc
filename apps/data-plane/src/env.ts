import { envFields } from '@sluice/config';
import { z } from 'zod';

/** An integer variable, bounded so that a bad value fails at boot naming it (not deep in a lib). */
const integer = (min: number, max: number, fallback: number) =>
  z.coerce.number().int().min(min).max(max).default(fallback);

export const envSchema = z.object({
  HOST: envFields.host(),
  DATA_PLANE_PORT: envFields.port(4100),
  REDIS_URL: envFields.redisUrl(),
  LOG_LEVEL: envFields.logLevel(),
  SLUICE_KEY_PREFIX: envFields.keyPrefix(),
  /** Re-read cached API keys this often: bounds how late a revocation whose message was lost lands. */
  DATA_PLANE_KEY_RECHECK_MS: integer(100, 60_000, 1000),
  /** Compare cached tenants' versions this often, in case a change message was lost. */
  DATA_PLANE_TENANT_RECHECK_MS: integer(100, 600_000, 2000),
  /** How long an unknown API key is remembered as unknown (at most 1 s, so a new key works soon). */
  DATA_PLANE_NEGATIVE_KEY_TTL_MS: integer(1, 1000, 1000),
  /** API keys (with a record) cached at most; beyond it, keys not used lately go first. */
  DATA_PLANE_MAX_CACHED_KEYS: integer(1, 10_000_000, 10_000),
  /** Unknown API keys remembered at most, apart from the known ones; the oldest goes first. */
  DATA_PLANE_MAX_CACHED_UNKNOWN_KEYS: integer(1, 1_000_000, 1000),
  /** Cached tenants and keys unused this long are dropped. */
  DATA_PLANE_CACHE_IDLE_MS: integer(1000, 86_400_000, 300_000),
  /** Consecutive Redis failures or timeouts of one policy that open its circuit (fail mode). */
  DATA_PLANE_BREAKER_FAILURES: integer(1, 1000, 5),
  /** How long a policy's circuit stays open before one probe may try Redis again. */
  DATA_PLANE_BREAKER_OPEN_MS: integer(1, 60_000, 500),
  /** Identifiers the local fail mode's in-process limiter keeps at most. */
  DATA_PLANE_LOCAL_MAX_KEYS: integer(1, 10_000_000, 100_000),
  /** Usage counters are aggregated in process and written to Redis this often. */
  DATA_PLANE_USAGE_FLUSH_MS: integer(1, 60_000, 1000),
  /** How long usage counters, top denied identifiers and key last-used times stay in Redis. */
  DATA_PLANE_USAGE_RETENTION_SECONDS: integer(1, 2_678_400, 900),
  /** Denied identifiers kept per policy and minute. */
  DATA_PLANE_USAGE_TOP_K: integer(1, 10_000, 100),
  /** Usage entries held in memory at most while Redis cannot be written; more are dropped. */
  DATA_PLANE_USAGE_MAX_PENDING: integer(1, 10_000_000, 100_000),
  /** Entries of each policy's decision log (approximate cap). */
  DATA_PLANE_DECISION_LOG_MAX_LEN: integer(1, 1_000_000, 10_000),
  /** Share of plain allows written to the decision log, 0..1 (every denial is written). */
  DATA_PLANE_DECISION_LOG_ALLOW_SAMPLE_RATE: z.coerce.number().min(0).max(1).default(0.01),
  /** Each process writes its heartbeat (for the platform view) this often. */
  DATA_PLANE_HEARTBEAT_MS: integer(1000, 60_000, 5000),
});

export type Env = z.infer<typeof envSchema>;

/** Injection token of the validated environment. */
export const ENV = Symbol('ENV');
