import { randomBytes } from 'node:crypto';
import { Redis, type RedisOptions } from 'ioredis';

/** The Redis the test run prepared (`npm test` exports REDIS_URL), else the local default. */
export function testRedisUrl(): string {
  return process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
}

/** A key prefix no other test shares, e.g. `t:3f9a1c2b:`. */
export function uniquePrefix(label = 't'): string {
  return `${label}:${randomBytes(4).toString('hex')}:`;
}

export interface TestRedis {
  readonly redis: Redis;
  /** Every key the test writes must start with this; `cleanup` deletes exactly those. */
  readonly prefix: string;
  /** A further connection to the same server (closed by `cleanup` too). */
  connect(options?: RedisOptions): Redis;
  cleanup(): Promise<void>;
}

/** A real Redis connection with a private key prefix; call `cleanup` in afterEach/afterAll. */
export function createTestRedis(label?: string): TestRedis {
  const prefix = uniquePrefix(label);
  const url = testRedisUrl();
  const connections: Redis[] = [];
  const connect = (options: RedisOptions = {}): Redis => {
    const connection = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 1, ...options });
    connections.push(connection);
    return connection;
  };
  const redis = connect();
  return {
    redis,
    prefix,
    connect,
    async cleanup() {
      await deleteByPrefix(redis, prefix);
      await Promise.all(connections.map((c) => c.quit().catch(() => c.disconnect())));
    },
  };
}

/** Deletes every key under `prefix` (SCAN, never KEYS, so a shared server is not blocked). */
export async function deleteByPrefix(redis: Redis, prefix: string): Promise<number> {
  let cursor = '0';
  let deleted = 0;
  const pattern = `${prefix.replace(/[*?[\]\\]/g, '\\$&')}*`;
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
    cursor = next;
    if (keys.length > 0) deleted += await redis.unlink(...keys);
  } while (cursor !== '0');
  return deleted;
}
