import { parseEnv } from '@sluice/config';
import { describe, expect, it } from 'vitest';
import { envSchema } from '../env';
import { bullmqOptions } from './bullmq-options';

const DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/sluice';

describe('bullmqOptions', () => {
  it('derives the BullMQ prefix from SLUICE_KEY_PREFIX', () => {
    expect(bullmqOptions(parseEnv(envSchema, { DATABASE_URL })).prefix).toBe('sluice:bull');
    expect(
      bullmqOptions(parseEnv(envSchema, { DATABASE_URL, SLUICE_KEY_PREFIX: 'demo:' })).prefix,
    ).toBe('demo:bull');
  });

  it('connects to REDIS_URL with unlimited retries per request, as BullMQ workers require', () => {
    const { connection } = bullmqOptions(
      parseEnv(envSchema, { DATABASE_URL, REDIS_URL: 'redis://redis:6379' }),
    );
    expect(connection).toEqual({ url: 'redis://redis:6379', maxRetriesPerRequest: null });
  });
});
