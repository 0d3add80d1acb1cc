import path from 'node:path';
import { LUA_DIR } from './script-loader';
import {
  createScriptSet,
  readLibVersion,
  scriptCommandName,
  type RedisLike,
  type ScriptArg,
} from './script-set';

export type { RedisLike } from './script-set';

export type ScriptName =
  | 'token_bucket'
  | 'leaky_bucket'
  | 'fixed_window'
  | 'sliding_window_log'
  | 'sliding_window_counter'
  | 'gcra'
  | 'concurrency'
  | 'check_rules'
  | 'settle_reservation'
  | 'release_lease';

/** This lib's version (package.json), part of every command name. */
export const LIB_VERSION = readLibVersion(path.join(__dirname, '..'));

const scripts = createScriptSet<ScriptName>({ dir: LUA_DIR, version: LIB_VERSION });

/** e.g. `sluice_token_bucket_v0_1_0`: deployments of different versions never share a script. */
export function commandName(script: ScriptName, version = LIB_VERSION): string {
  return scriptCommandName('', script, version);
}

/** Defines every script on this connection once (see `ScriptSet.register`). Safe to call again. */
export function registerScripts(redis: RedisLike): void {
  scripts.register(redis);
}

/** The one place this lib's scripts run; every one of them replies with integers. */
export async function runScript(
  redis: RedisLike,
  name: ScriptName,
  keys: readonly string[],
  args: readonly ScriptArg[],
): Promise<number[]> {
  const reply = await scripts.run(redis, name, keys, args);
  if (!Array.isArray(reply) || !reply.every((value) => typeof value === 'number')) {
    throw new Error(`${name} replied ${JSON.stringify(reply)}, expected integers`);
  }
  return reply;
}
