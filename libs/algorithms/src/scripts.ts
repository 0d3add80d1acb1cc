import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Cluster, Redis } from 'ioredis';
import { loadScripts, ScriptLoadError, type LoadedScript } from './script-loader';

export type RedisLike = Redis | Cluster;

export type ScriptName =
  | 'token_bucket'
  | 'leaky_bucket'
  | 'fixed_window'
  | 'sliding_window_log'
  | 'sliding_window_counter'
  | 'gcra'
  | 'check_rules';

const SCRIPT_NAMES: readonly ScriptName[] = [
  'token_bucket',
  'leaky_bucket',
  'fixed_window',
  'sliding_window_log',
  'sliding_window_counter',
  'gcra',
  'check_rules',
];

/** This lib's version (package.json), part of every command name. */
export const LIB_VERSION = readVersion();

/** e.g. `sluice_token_bucket_v0_1_0`: deployments of different versions never share a script. */
export function commandName(script: ScriptName, version = LIB_VERSION): string {
  const suffix = version.replace(/[^A-Za-z0-9]/g, '_');
  return `sluice_${script}_v${suffix}`;
}

let loaded: Map<string, LoadedScript> | undefined;
const registered = new WeakSet<RedisLike>();

function script(name: ScriptName): LoadedScript {
  loaded ??= new Map(loadScripts().map((found) => [found.name, found]));
  const found = loaded.get(name);
  if (!found) throw new ScriptLoadError(`missing Lua script ${name}-<numberOfKeys>.lua`);
  return found;
}

/**
 * Defines every script on this connection once (ioredis then runs EVALSHA and falls back to EVAL
 * when the server does not know the script yet). Safe to call again.
 */
export function registerScripts(redis: RedisLike): void {
  if (registered.has(redis)) return;
  for (const name of SCRIPT_NAMES) {
    const { lua, numberOfKeys } = script(name);
    redis.defineCommand(
      commandName(name),
      numberOfKeys === undefined ? { lua } : { lua, numberOfKeys },
    );
  }
  registered.add(redis);
}

type ScriptCommand = (...args: (string | number)[]) => Promise<unknown>;

/** The one place scripts run: KEYS then ARGV, key count prepended for variable-key scripts. */
export async function runScript(
  redis: RedisLike,
  name: ScriptName,
  keys: readonly string[],
  args: readonly string[],
): Promise<number[]> {
  registerScripts(redis);
  const { numberOfKeys } = script(name);
  if (numberOfKeys !== undefined && numberOfKeys !== keys.length) {
    throw new Error(`${name} takes ${numberOfKeys} keys, got ${keys.length}`);
  }
  // defineCommand adds the method at runtime, so the typings cannot know it
  const command = (redis as unknown as Record<string, ScriptCommand | undefined>)[
    commandName(name)
  ];
  if (!command) throw new Error(`${commandName(name)} is not defined on this connection`);
  const reply = await command.apply(redis, [
    ...(numberOfKeys === undefined ? [keys.length] : []),
    ...keys,
    ...args,
  ]);
  if (!Array.isArray(reply) || !reply.every((value) => typeof value === 'number')) {
    throw new Error(`${name} replied ${JSON.stringify(reply)}, expected integers`);
  }
  return reply;
}

function readVersion(): string {
  const pkg: unknown = JSON.parse(readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8'));
  const version = (pkg as { version?: unknown }).version;
  if (typeof version !== 'string') throw new ScriptLoadError('package.json has no version');
  return version;
}
