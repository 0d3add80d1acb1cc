/**
 * Redis-side time of the worst legal denied checks of a sliding window log (a script that prints
 * figures, not a test), read from SLOWLOG. For each size, a log of that many cost-1 members (the
 * limit) is filled through the real script, then each denied check runs `--runs` times:
 *   - cost = the limit: the whole sum must leave (the case);
 *   - cost = half the limit + 1: the most members any walk from the nearer end must pass;
 *   - expired: all but one member expired and not yet pruned, cost = the limit: the most members
 *     the sum's correction reads.
 *
 *   node_modules/.bin/tsx --conditions=@sluice/source bench/src/sliding-log-slowlog.ts \
 *     [--sizes 10000,100000] [--runs 3] [--lua-dir <folder of scripts>]
 *
 * REDIS_URL defaults to 127.0.0.1:6379. `--lua-dir` loads the scripts from another folder (e.g.
 * an older commit's `libs/algorithms/lua`, for before/after figures). Keys go under a random
 * prefix and are deleted at the end; `slowlog-log-slower-than` is 0 only while checks run (and
 * `slowlog-max-len` at least 1024), then both are restored, also on Ctrl-C.
 */
import { loadScripts } from '@sluice/algorithms';
import { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';

/** Ten minutes: the keys outlive a slow run's fill and checks (their TTL follows the window). */
const WINDOW_US = 600_000_000;
/** Fill checks per pipeline. */
const FILL_BATCH = 2_000;
const SLOWLOG_LEN = 1_024;

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '10000,100000' },
    runs: { type: 'string', default: '3' },
    'lua-dir': { type: 'string' },
  },
});
const sizes = values.sizes.split(',').map(Number);
const runs = Number(values.runs);
if (!sizes.every((size) => Number.isInteger(size) && size >= 2 && size <= 1_000_000)) {
  throw new Error('--sizes must be integers in 2..1,000,000, comma-separated');
}
if (!Number.isInteger(runs) || runs < 1 || runs > 20) throw new Error('--runs must be 1..20');
const lua = loadScripts(values['lua-dir']).find(({ name }) => name === 'sliding_window_log')?.lua;
if (lua === undefined) throw new Error('no sliding-window-log-2.lua in the scripts folder');
const slidingLogLua = lua;

const prefix = `bench-swl:${randomBytes(4).toString('hex')}:`;
const redis = new Redis(process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379', {
  connectionName: `${prefix}client`,
});
const written: string[] = [];
let restore: string[] | undefined;

interface Check {
  label: string;
  cost: number;
  nowUs: number;
}

/** Admits one cost-1 member at each time (µs) through the real script, in order. */
async function fill(sha: string, keys: string[], limit: number, times: number[]): Promise<void> {
  written.push(...keys);
  for (let i = 0; i < times.length; i += FILL_BATCH) {
    const pipeline = redis.pipeline();
    for (const atUs of times.slice(i, i + FILL_BATCH)) {
      pipeline.evalsha(sha, 2, ...keys, String(atUs), '1', String(limit), String(WINDOW_US));
    }
    const replies = (await pipeline.exec()) ?? [];
    const admitted = replies.every(([error, reply]) => !error && (reply as number[])[0] === 1);
    if (!admitted) {
      throw new Error(`filling ${keys[0]}: a check was not admitted`);
    }
  }
}

/** Sets the SLOWLOG config to log every command, keeping what it was to restore. */
async function logEverything(): Promise<void> {
  const [, slower = '', , length = ''] = (await redis.config(
    'GET',
    'slowlog-log-slower-than',
    'slowlog-max-len',
  )) as string[];
  restore = ['slowlog-log-slower-than', slower, 'slowlog-max-len', length];
  await redis.config(
    'SET',
    'slowlog-max-len',
    String(Math.max(Number(length), SLOWLOG_LEN)),
    'slowlog-log-slower-than',
    '0',
  );
}

async function restoreSlowlog(): Promise<void> {
  if (!restore) return;
  const [key1 = '', value1 = '', key2 = '', value2 = ''] = restore;
  await redis.config('SET', key1, value1, key2, value2);
  restore = undefined;
}

/** The Redis-side µs of this connection's latest EVALSHA on `key`, from SLOWLOG. */
async function lastDuration(key: string): Promise<number> {
  const entries = (await redis.slowlog('GET', SLOWLOG_LEN)) as [
    number,
    number,
    number,
    string[],
    string,
    string,
  ][];
  const ours = entries.find(
    ([, , , args, , client]) =>
      client === `${prefix}client` && args[0]?.toLowerCase() === 'evalsha' && args[3] === key,
  );
  if (!ours) throw new Error('the check is not in SLOWLOG (too many other commands?)');
  return ours[2];
}

/** Runs each denied check `runs` times; the Redis µs of each run. */
async function measure(sha: string, keys: string[], limit: number, checks: Check[]) {
  const rows: { label: string; cost: number; us: number[] }[] = [];
  await logEverything();
  try {
    for (const { label, cost, nowUs } of checks) {
      const us: number[] = [];
      for (let run = 0; run < runs; run += 1) {
        const reply = (await redis.evalsha(
          sha,
          2,
          ...keys,
          String(nowUs),
          String(cost),
          String(limit),
          String(WINDOW_US),
        )) as number[];
        if (reply[0] !== 0) throw new Error(`${label}: the check was admitted`);
        us.push(await lastDuration(keys[0] ?? ''));
      }
      rows.push({ label, cost, us });
    }
  } finally {
    await restoreSlowlog();
  }
  return rows;
}

async function cleanup(): Promise<void> {
  await restoreSlowlog();
  for (let i = 0; i < written.length; i += 1000) {
    await redis.unlink(...written.slice(i, i + 1000));
  }
  written.length = 0;
}

function median(us: number[]): number {
  const sorted = [...us].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

async function main(): Promise<void> {
  const sha = (await redis.script('LOAD', slidingLogLua)) as string;
  const info = await redis.info('server');
  console.log(
    `Redis ${/redis_version:(\S+)/.exec(info)?.[1] ?? '?'}, scripts from ${values['lua-dir'] ?? '@sluice/algorithms'}`,
  );
  console.log('| members = limit | denied check | cost | Redis µs per run (SLOWLOG) | median |');
  console.log('| --- | --- | --- | --- | --- |');
  const baseUs = Date.now() * 1000;
  for (const size of sizes) {
    const full = [`${prefix}{full-${size}}`, `${prefix}{full-${size}}:sum`];
    const fullTimes = Array.from({ length: size }, (_, i) => baseUs + i);
    await fill(sha, full, size, fullTimes);
    const afterFull = baseUs + size + 1000;
    const rows = await measure(sha, full, size, [
      { label: 'cost = limit (the whole sum leaves)', cost: size, nowUs: afterFull },
      { label: 'cost = limit / 2 + 1', cost: Math.floor(size / 2) + 1, nowUs: afterFull },
    ]);

    // all but the last member expire before the check; a denial does not prune them
    const expired = [`${prefix}{expired-${size}}`, `${prefix}{expired-${size}}:sum`];
    await fill(sha, expired, size, [...fullTimes.slice(1), baseUs + WINDOW_US / 2]);
    rows.push(
      ...(await measure(sha, expired, size, [
        {
          label: `${size - 1} expired, 1 live, cost = limit`,
          cost: size,
          nowUs: baseUs + WINDOW_US + size + 1000,
        },
      ])),
    );
    for (const { label, cost, us } of rows) {
      const figures = us.map((value) => value.toLocaleString('en-US')).join(', ');
      console.log(
        `| ${size.toLocaleString('en-US')} | ${label} | ${cost.toLocaleString('en-US')} | ${figures} | ${median(us).toLocaleString('en-US')} |`,
      );
    }
    await cleanup();
  }
}

for (const name of ['SIGINT', 'SIGTERM'] as const) {
  process.once(name, () => {
    void cleanup().finally(() => process.exit(130));
  });
}

main()
  .catch(async (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
    await cleanup();
  })
  .finally(() => redis.disconnect());
