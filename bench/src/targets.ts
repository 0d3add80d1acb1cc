import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Redis } from 'ioredis';
import { PROFILES, type ScriptProfile } from './commandstats';
import { freePort, SERVER_CPU, spawnPinned, waitFor, type Pinned } from './processes';
import { seedSluice } from './seed-sluice';
import { CHECK_PATH, checkBody } from './workload';

export const TARGET_IDS = ['a', 'b', 'c', 'd'] as const;
export type TargetId = (typeof TARGET_IDS)[number];

export interface Target {
  id: TargetId;
  label: string;
  /** What the scripts this server runs execute inside Redis per run (see ./commandstats). */
  profile: ScriptProfile;
}

export const TARGETS: Record<TargetId, Target> = {
  a: { id: 'a', label: '(a) Sluice /v1/check', profile: PROFILES.sluiceTokenBucket },
  b: { id: 'b', label: '(b) bare node:http', profile: PROFILES.none },
  c: {
    id: 'c',
    label: '(c) express + rate-limiter-flexible',
    profile: PROFILES.rateLimiterFlexible,
  },
  d: { id: 'd', label: '(d) fastify + ioredis EVALSHA', profile: PROFILES.sluiceTokenBucket },
};

const SERVER_FILES: Record<Exclude<TargetId, 'a'>, string> = {
  b: 'bare-http.ts',
  c: 'express-rlf.ts',
  d: 'fastify-redis.ts',
};

export const DATA_PLANE_MAIN = path.resolve(__dirname, '../../apps/data-plane/dist/main.js');

/** Node flags that run this package's TypeScript as the runner does (tsx, lib sources). */
export const TS_NODE_ARGS = [
  '--conditions=@sluice/source',
  '--import',
  pathToFileURL(require.resolve('tsx')).href,
];

export interface Running {
  target: Target;
  process: Pinned;
  origin: string;
}

export interface StartContext {
  redisUrl: string;
  /** This run's key prefix; each server writes under `<prefix><id>:`. */
  prefix: string;
  apiKey: string;
  /** Node flags before the server's own (e.g. `--cpu-prof`). */
  nodeFlags: readonly string[];
}

/**
 * Seeds the data plane's demo tenant and returns its API key, or why (a) cannot run. The data
 * plane's own build is checked first, so the message says what to do.
 */
export async function prepareSluice(
  redis: Redis,
  prefix: string,
): Promise<{ apiKey: string } | { unavailable: string }> {
  if (!existsSync(DATA_PLANE_MAIN)) {
    return {
      unavailable: `${path.relative(process.cwd(), DATA_PLANE_MAIN)} not found: build it with \`npx nx run @sluice/data-plane:build\``,
    };
  }
  try {
    return await seedSluice(redis, `${prefix}a:`);
  } catch (error) {
    return { unavailable: error instanceof Error ? error.message : String(error) };
  }
}

/** Starts one server on CPU 0 and waits until a real check is answered 200 with allowed=true. */
export async function startTarget(target: Target, context: StartContext): Promise<Running> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    REDIS_URL: context.redisUrl,
    SLUICE_KEY_PREFIX: `${context.prefix}${target.id}:`,
  };
  const child =
    target.id === 'a'
      ? spawnPinned(
          target.label,
          SERVER_CPU,
          process.execPath,
          [...context.nodeFlags, DATA_PLANE_MAIN],
          {
            ...env,
            DATA_PLANE_PORT: String(port),
            LOG_LEVEL: 'warn',
          },
        )
      : spawnPinned(
          target.label,
          SERVER_CPU,
          process.execPath,
          [
            ...context.nodeFlags,
            ...TS_NODE_ARGS,
            path.join(__dirname, 'servers', SERVER_FILES[target.id]),
          ],
          { ...env, PORT: String(port) },
        );
  const origin = `http://127.0.0.1:${port}`;
  await waitFor('allowed check', child, () => probeCheck(origin, context.apiKey), 30_000);
  return { target, process: child, origin };
}

/** undefined while nothing listens; throws on any answer but an allowed check. */
async function probeCheck(origin: string, apiKey: string): Promise<true | undefined> {
  let response: Response;
  try {
    response = await fetch(`${origin}${CHECK_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
      body: checkBody(0),
      signal: AbortSignal.timeout(2000),
    });
  } catch {
    return undefined;
  }
  const text = await response.text();
  if (response.status !== 200 || !answersAllowed(text)) {
    throw new Error(`${origin}${CHECK_PATH} answered ${response.status} ${text}`);
  }
  return true;
}

function answersAllowed(text: string): boolean {
  try {
    return (JSON.parse(text) as { allowed?: unknown }).allowed === true;
  } catch {
    return false;
  }
}
