import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ChainableCommander, Cluster, Redis } from 'ioredis';
import { loadScripts, ScriptLoadError, type LoadedScript } from './script-loader';

export type RedisLike = Redis | Cluster;

const NAMESPACE = /^[a-z0-9_]{0,32}$/;

export interface ScriptSetOptions {
  /** A folder of `<name>-<numberOfKeys|n>.lua` scripts (see `loadScripts`), e.g. a lib's `lua/`. */
  dir: string;
  /**
   * The owning lib (`policy`, `usage`), so two libs' scripts never share a command name; the
   * algorithms lib has none. `[a-z0-9_]{0,32}`.
   */
  namespace?: string;
  /** The owning lib's version (`readLibVersion`): deployments of two versions never share one. */
  version: string;
}

export type ScriptArg = string | number;

/** One lib's Lua scripts, each defined once per connection under a versioned command name. */
export interface ScriptSet<Name extends string> {
  /** e.g. `sluice_policy_publish_tenant_v0_1_0`. */
  commandName(name: Name): string;
  /**
   * Defines every script of the folder on this connection (ioredis then sends EVALSHA and falls
   * back to EVAL when the server does not know the script yet). Safe to call again. Pipelines
   * copy a connection's commands when created, so register the connection first.
   */
  register(redis: RedisLike): void;
  /** Runs a script (registering the connection first); the key count is added for `-n` scripts. */
  run(
    redis: RedisLike,
    name: Name,
    keys: readonly string[],
    args: readonly ScriptArg[],
  ): Promise<unknown>;
  /** Queues a script on a pipeline (or MULTI) of a registered connection. */
  queue(
    pipeline: ChainableCommander,
    name: Name,
    keys: readonly string[],
    args: readonly ScriptArg[],
  ): void;
}

type ScriptCommand = (...args: ScriptArg[]) => unknown;

/** `sluice_<namespace>_<name>_v<version>`, non-alphanumerics of the version as `_`. */
export function scriptCommandName(namespace: string, name: string, version: string): string {
  const suffix = version.replace(/[^A-Za-z0-9]/g, '_');
  return `sluice_${namespace === '' ? '' : `${namespace}_`}${name}_v${suffix}`;
}

/** The `version` of `<libDir>/package.json`. */
export function readLibVersion(libDir: string): string {
  const file = path.join(libDir, 'package.json');
  const pkg: unknown = JSON.parse(readFileSync(file, 'utf8'));
  const version = (pkg as { version?: unknown }).version;
  if (typeof version !== 'string') throw new ScriptLoadError(`${file} has no version`);
  return version;
}

/** The one script mechanism of every lib: scripts are read (includes resolved) on first use. */
export function createScriptSet<Name extends string>(options: ScriptSetOptions): ScriptSet<Name> {
  const namespace = options.namespace ?? '';
  if (!NAMESPACE.test(namespace)) {
    throw new ScriptLoadError(`namespace must match ${NAMESPACE.source}, got "${namespace}"`);
  }
  const commandName = (name: string): string => scriptCommandName(namespace, name, options.version);
  let loaded: Map<string, LoadedScript> | undefined;
  const scripts = (): Map<string, LoadedScript> =>
    (loaded ??= new Map(loadScripts(options.dir).map((found) => [found.name, found])));
  const registered = new WeakSet<RedisLike>();

  const script = (name: string): LoadedScript => {
    const found = scripts().get(name);
    if (!found) {
      throw new ScriptLoadError(`no script ${name}-<numberOfKeys|n>.lua in ${options.dir}`);
    }
    return found;
  };

  /** KEYS then ARGV, the key count first for variable-key scripts. */
  const callArgs = (name: string, keys: readonly string[], args: readonly ScriptArg[]) => {
    const { numberOfKeys } = script(name);
    if (numberOfKeys !== undefined && numberOfKeys !== keys.length) {
      throw new Error(`${name} takes ${numberOfKeys} keys, got ${keys.length}`);
    }
    return [...(numberOfKeys === undefined ? [keys.length] : []), ...keys, ...args];
  };

  // defineCommand adds the methods at runtime, so the typings cannot know them
  const command = (target: object, name: string): ScriptCommand => {
    const found = (target as Record<string, ScriptCommand | undefined>)[commandName(name)];
    if (typeof found !== 'function') {
      throw new Error(
        `${commandName(name)} is not defined here: register the connection (before creating a pipeline)`,
      );
    }
    return found;
  };

  const register = (redis: RedisLike): void => {
    if (registered.has(redis)) return;
    for (const { name, lua, numberOfKeys } of scripts().values()) {
      // a command of that name from another set would be replaced, breaking that set's callers
      if (commandName(name) in redis) {
        throw new ScriptLoadError(`${commandName(name)} is already defined on this connection`);
      }
      redis.defineCommand(
        commandName(name),
        numberOfKeys === undefined ? { lua } : { lua, numberOfKeys },
      );
    }
    registered.add(redis);
  };

  return {
    commandName,
    register,
    async run(redis, name, keys, args) {
      register(redis);
      const call = callArgs(name, keys, args);
      return command(redis, name).apply(redis, call);
    },
    queue(pipeline, name, keys, args) {
      const call = callArgs(name, keys, args);
      command(pipeline, name).apply(pipeline, call);
    },
  };
}
