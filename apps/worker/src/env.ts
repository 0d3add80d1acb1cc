import { envFields } from '@sluice/config';
import { allowedCidrsEnvField, secretsKeyEnvField } from '@sluice/webhooks';
import { z } from 'zod';

/** An integer variable, bounded so that a bad value fails at boot naming it. */
const integer = (min: number, max: number, fallback: number) =>
  z.coerce.number().int().min(min).max(max).default(fallback);

export const envSchema = z.object({
  HOST: envFields.host(),
  WORKER_PORT: envFields.port(4200),
  DATABASE_URL: envFields.databaseUrl(),
  REDIS_URL: envFields.redisUrl(),
  LOG_LEVEL: envFields.logLevel(),
  SLUICE_KEY_PREFIX: envFields.keyPrefix(),
  /** Each process writes its heartbeat (its queues, for the platform view) this often. */
  WORKER_HEARTBEAT_MS: integer(1000, 60_000, 5000),
  /** How often the usage roll-up folds the data plane's per-second counters into minutes (ms). */
  WORKER_USAGE_ROLLUP_INTERVAL_MS: integer(1000, 300_000, 15_000),
  /** A minute is folded once it ended this long ago (s): room for the data planes' flushes. */
  WORKER_USAGE_ROLLUP_GRACE_SECONDS: integer(0, 300, 5),
  /** Minutes that ended within this (s) are folded again on every run, catching late seconds. */
  WORKER_USAGE_ROLLUP_LOOKBACK_SECONDS: integer(60, 2_678_400, 900),
  /** `UsageMinute` rows older than this many days are deleted (hourly). */
  WORKER_USAGE_RETENTION_DAYS: integer(1, 3650, 90),
  /** Decrypts webhook signing secrets (32 bytes, base64); unset: the webhook dispatcher stays off. */
  SLUICE_SECRETS_KEY: secretsKeyEnvField(),
  /** Non-public networks webhooks may reach (CIDRs, comma-separated); default none. */
  SLUICE_WEBHOOK_ALLOWED_CIDRS: allowedCidrsEnvField(),
  /** Webhook deliveries one worker process runs at once, all endpoints together. */
  WORKER_WEBHOOK_CONCURRENCY: integer(1, 1000, 64),
  /** A delivery attempt not over within this (ms), headers and body: it failed. */
  WORKER_WEBHOOK_TIMEOUT_MS: integer(100, 120_000, 10_000),
  /** Deliveries of one endpoint in flight at once, so a slow receiver holds only these slots. */
  WORKER_WEBHOOK_MAX_IN_FLIGHT: integer(1, 1000, 8),
  /** Retry n waits about base × 2^(n-1) ms (half of it fixed, half random), at most the max. */
  WORKER_WEBHOOK_BACKOFF_BASE_MS: integer(10, 3_600_000, 2000),
  WORKER_WEBHOOK_BACKOFF_MAX_MS: integer(100, 86_400_000, 3_600_000),
  /** Failed attempts in a row that pause the endpoint (base pause, doubling, up to the max). */
  WORKER_WEBHOOK_FAILURE_THRESHOLD: integer(1, 1000, 5),
  /** Lock of a delivery in progress (ms): a killed worker's deliveries restart after about it. */
  WORKER_WEBHOOK_LOCK_MS: integer(1000, 600_000, 30_000),
  /** How often deliveries of dead workers are looked for (ms). */
  WORKER_WEBHOOK_STALLED_INTERVAL_MS: integer(500, 600_000, 30_000),
  /** Dead letters are kept (and replayable) this many days. */
  WORKER_WEBHOOK_DEAD_LETTER_DAYS: integer(1, 365, 30),
  /** A threshold alert read by a worker that died unacknowledged is taken over after this (ms). */
  WORKER_ALERTS_RECLAIM_MS: integer(1000, 3_600_000, 60_000),
});

export type Env = z.infer<typeof envSchema>;

/** Injection token of the validated environment. */
export const ENV = Symbol('ENV');
