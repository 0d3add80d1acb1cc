import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestRedis, type TestRedis } from '@sluice/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createScriptSet, readLibVersion, ScriptLoadError } from '../src/index';

/** A folder of two scripts: a fixed-key one and a variable-key (`-n`) one. */
function scriptDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'sluice-set-'));
  writeFileSync(path.join(dir, 'echo-1.lua'), 'return { KEYS[1], ARGV[1] }');
  writeFileSync(path.join(dir, 'count-n.lua'), 'return { #KEYS, #ARGV }');
  return dir;
}

describe('createScriptSet', () => {
  let t: TestRedis;
  let dir: string;
  beforeAll(() => {
    t = createTestRedis('alg-set');
    dir = scriptDir();
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await t.cleanup();
  });

  it('names commands sluice_<namespace>_<name>_v<version>', () => {
    const set = createScriptSet<'echo'>({ dir, namespace: 'demo', version: '1.2.0-rc.1' });
    expect(set.commandName('echo')).toBe('sluice_demo_echo_v1_2_0_rc_1');
    const bare = createScriptSet<'echo'>({ dir, version: '0.1.0' });
    expect(bare.commandName('echo')).toBe('sluice_echo_v0_1_0');
    expect(() => createScriptSet({ dir, namespace: 'Bad-Name', version: '1' })).toThrow(
      ScriptLoadError,
    );
  });

  it('defines every script once per connection and runs them, the key count added for -n', async () => {
    const set = createScriptSet<'echo' | 'count'>({ dir, namespace: 'run', version: '1' });
    const redis = t.connect();
    const define = vi.spyOn(redis, 'defineCommand');
    expect(await set.run(redis, 'echo', [`${t.prefix}k`], ['a'])).toEqual([`${t.prefix}k`, 'a']);
    expect(await set.run(redis, 'count', [`${t.prefix}a`, `${t.prefix}b`], [1, 2, 3])).toEqual([
      2, 3,
    ]);
    set.register(redis);
    expect(define.mock.calls.map(([name]) => name).sort()).toEqual([
      'sluice_run_count_v1',
      'sluice_run_echo_v1',
    ]);
    await expect(set.run(redis, 'echo', [], ['a'])).rejects.toThrow('echo takes 1 keys, got 0');
  });

  it('queues on pipelines of a registered connection', async () => {
    const set = createScriptSet<'count'>({ dir, namespace: 'queue', version: '1' });
    const redis = t.connect();
    expect(() => set.queue(redis.pipeline(), 'count', [], [])).toThrow(/register the connection/);
    set.register(redis);
    const pipeline = redis.pipeline();
    set.queue(pipeline, 'count', [`${t.prefix}a`], ['x']);
    set.queue(pipeline, 'count', [], []);
    expect(await pipeline.exec()).toEqual([
      [null, [1, 1]],
      [null, [0, 0]],
    ]);
  });

  it('refuses to replace a command another set defined on the connection', () => {
    const redis = t.connect();
    createScriptSet({ dir, namespace: 'clash', version: '1' }).register(redis);
    const twin = createScriptSet({ dir, namespace: 'clash', version: '1' });
    expect(() => twin.register(redis)).toThrow(/sluice_clash_\w+_v1 is already defined/);
    createScriptSet({ dir, namespace: 'clash', version: '2' }).register(redis);
  });

  it('reads the version from a lib folder', () => {
    expect(readLibVersion(path.join(__dirname, '..'))).toBe('0.1.0');
    expect(() => readLibVersion(dir)).toThrow();
  });
});
