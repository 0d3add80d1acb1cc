import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { loadScripts } from '@sluice/algorithms';
import { createTestRedis, type TestRedis } from '@sluice/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readKeyLastUsed, UsageRecorder } from '../src/index';
import { USAGE_LUA_DIR } from '../src/last-used';
import { BASE_MS, decision } from './support';

let t: TestRedis;
beforeEach(() => {
  t = createTestRedis('usage-scripts');
});
afterEach(() => t.cleanup());

describe('Lua scripts', () => {
  const files = readdirSync(USAGE_LUA_DIR).filter((file) => file.endsWith('.lua'));

  it('live in lua/ as <name>-<numberOfKeys>.lua', () => {
    expect(files).toEqual(['claim-alerts-n.lua', 'touch-last-used-1.lua']);
  });

  it.each(files)('%s opens with a header naming KEYS, ARGV and what it returns', (file) => {
    const source = readFileSync(path.join(USAGE_LUA_DIR, file), 'utf8');
    const header = /^--\[\[([\s\S]*?)\]\]/.exec(source)?.[1] ?? '';
    expect(header).toMatch(/KEYS\[1\]/);
    expect(header).toMatch(/ARGV\[1\]/);
    expect(header).toMatch(/Returns/);
  });

  it('are defined once per connection by the algorithms lib and run by EVALSHA in pipelines', async () => {
    const redis = t.connect();
    const define = vi.spyOn(redis, 'defineCommand');
    const usage = new UsageRecorder({ redis, prefix: t.prefix, allowSampleRate: 0 });
    new UsageRecorder({ redis, prefix: t.prefix, allowSampleRate: 0 });
    expect(define.mock.calls.map(([name]) => name)).toEqual([
      'sluice_usage_claim_alerts_v0_1_0',
      'sluice_usage_touch_last_used_v0_1_0',
    ]);
    usage.record(decision({ keyId: 'key_1', at: BASE_MS + 1 }));
    await usage.flush();
    expect(await readKeyLastUsed(t.redis, t.prefix, 'tnt_a')).toEqual([
      { keyId: 'key_1', lastUsedAt: BASE_MS + 1 },
    ]);
    const script = loadScripts(USAGE_LUA_DIR).find(({ name }) => name === 'touch_last_used');
    const sha = createHash('sha1').update(script!.lua).digest('hex');
    expect(await t.redis.script('EXISTS', sha)).toEqual([1]);
  });
});
