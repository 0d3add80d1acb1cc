import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { loadScripts } from '@sluice/algorithms';
import { createTestRedis, type TestRedis } from '@sluice/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { compileTenant, deleteTenant, publishTenant } from '../src/index';
import { POLICY_LUA_DIR, policyScripts } from '../src/scripts';
import { tenantInput } from './fixtures';

let t: TestRedis;
beforeEach(() => {
  t = createTestRedis('policy-scripts');
});
afterEach(() => t.cleanup());

describe('Lua scripts', () => {
  const files = readdirSync(POLICY_LUA_DIR).filter((file) => file.endsWith('.lua'));

  it.each(files)('%s opens with a header naming KEYS, ARGV and what it returns', (file) => {
    const source = readFileSync(path.join(POLICY_LUA_DIR, file), 'utf8');
    const header = /^--\[\[([\s\S]*?)\]\]/.exec(source)?.[1] ?? '';
    expect(header).toMatch(/KEYS\[1\]/);
    expect(header).toMatch(/ARGV\[1\]/);
    expect(header).toMatch(/Returns/);
  });

  it('are defined once per connection by the algorithms lib, under names of their own', async () => {
    const redis = t.connect();
    const define = vi.spyOn(redis, 'defineCommand');
    await publishTenant(redis, t.prefix, compileTenant(tenantInput('tnt_a')));
    await publishTenant(redis, t.prefix, compileTenant(tenantInput('tnt_a')));
    await deleteTenant(redis, t.prefix, 'tnt_a');
    expect(define.mock.calls.map(([name]) => name).sort()).toEqual([
      'sluice_policy_delete_tenant_v0_1_0',
      'sluice_policy_publish_tenant_v0_1_0',
    ]);
    expect(policyScripts.commandName('publish_tenant')).toBe('sluice_policy_publish_tenant_v0_1_0');
  });

  it('run by EVALSHA: the resolved sources are cached on the server after a call', async () => {
    await publishTenant(t.redis, t.prefix, compileTenant(tenantInput('tnt_a')));
    await deleteTenant(t.redis, t.prefix, 'tnt_a');
    const shas = loadScripts(POLICY_LUA_DIR).map(({ lua }) =>
      createHash('sha1').update(lua).digest('hex'),
    );
    expect(await t.redis.script('EXISTS', ...shas)).toEqual([1, 1]);
  });
});
