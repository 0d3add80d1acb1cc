import type { KeyPrefixOptions, QueueBaseOptions } from 'bullmq';
import type { Env } from '../env';

export type BullmqOptions = QueueBaseOptions & KeyPrefixOptions;

/** Connection and key prefix shared by every BullMQ worker and queue of this app. */
export function bullmqOptions(env: Env): BullmqOptions {
  return {
    // Blocking BullMQ commands must wait out reconnects rather than fail after N retries.
    connection: { url: env.REDIS_URL, maxRetriesPerRequest: null },
    // BullMQ appends ":<queue>:…", so keys read e.g. "sluice:bull:sluice-system:…".
    prefix: `${env.SLUICE_KEY_PREFIX}bull`,
  };
}
