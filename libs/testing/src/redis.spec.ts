import { afterEach, describe, expect, it } from 'vitest';
import { createTestRedis, type TestRedis } from './redis';

describe('createTestRedis', () => {
  let a: TestRedis | undefined;
  let b: TestRedis | undefined;
  afterEach(async () => {
    await b?.cleanup();
  });

  it('cleans up its own prefix and nothing else', async () => {
    a = createTestRedis();
    b = createTestRedis();
    expect(a.prefix).not.toEqual(b.prefix);
    await a.redis.set(`${a.prefix}{x}:one`, '1');
    await a.redis.set(`${a.prefix}two*`, '2');
    await b.redis.set(`${b.prefix}kept`, '3');
    await a.cleanup();
    expect(await b.redis.exists(`${a.prefix}{x}:one`, `${a.prefix}two*`)).toBe(0);
    expect(await b.redis.get(`${b.prefix}kept`)).toBe('3');
  });
});
