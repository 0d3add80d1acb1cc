/**
 * Side-by-side /check benchmark (issue 3): (a) Sluice, (b) bare node:http, (c) express +
 * rate-limiter-flexible, (d) fastify + one EVALSHA. See ../README.md for the method.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { commandStats, issuedCommands, type IssuedCommands } from './commandstats';
import type { LoadConfig, LoadResult } from './load';
import { parseOptions, USAGE, UsageError, type Options } from './options';
import {
  cpuSeconds,
  freePort,
  LOAD_CPU,
  sleep,
  spawnPinned,
  stop,
  stopAll,
  stopAllOnExit,
  waitFor,
} from './processes';
import { cpuProfFlags, formatSummary, readProfile, summarizeProfile } from './profile';
import { markdownTable, median, type Summary } from './report';
import {
  prepareSluice,
  startTarget,
  TARGET_IDS,
  TARGETS,
  TS_NODE_ARGS,
  type Running,
  type TargetId,
} from './targets';
import { BENCH_LIMIT, IDENTIFIER_COUNT } from './workload';

const LOAD_SCRIPT = path.join(__dirname, 'load.ts');
const RESULTS_DIR = path.resolve(__dirname, '../results');
/** Sent to (b), (c), (d), which ignore it, when (a) has no seeded key: same request shape. */
const PLACEHOLDER_KEY = 'sk_bench_placeholder_key_not_checked';
/** Lets requests still in flight when autocannon stops finish before the "after" snapshot. */
const SETTLE_MS = 500;
/** The load generator's own start and stop, beyond its duration. */
const SLACK_SECONDS_PER_LOAD = 15;
/** A server's start (30 s readiness limit) and the seeding. */
const SLACK_SECONDS_PER_SERVER = 45;

interface RoundResult {
  round: number;
  id: TargetId;
  load: LoadResult;
  redis: IssuedCommands & { perCheck: number };
  /** The server's CPU time during the round (settle included) per request answered. */
  cpuUsPerRequest: number;
}

const log = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  if (options === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  preflight();
  stopAllOnExit();
  const budgetSeconds = timeBudgetSeconds(options);
  const watchdog = setTimeout(() => {
    log(`run exceeded its ${budgetSeconds} s budget: stopping everything`);
    void stopAll().finally(() => process.exit(1));
  }, budgetSeconds * 1000);
  try {
    await run(options);
  } finally {
    clearTimeout(watchdog);
    await stopAll();
  }
}

function preflight(): void {
  if (os.availableParallelism() < 2) {
    throw new Error('needs 2 CPUs: the server under test on CPU 0, autocannon and Redis on CPU 1');
  }
  const taskset = spawnSync('taskset', ['--version']);
  if (taskset.error || taskset.status !== 0) throw new Error('taskset not found (util-linux)');
}

function timeBudgetSeconds(options: Options): number {
  const servers = (options.only ?? TARGET_IDS).length;
  const perServer = SLACK_SECONDS_PER_SERVER + options.warmupSeconds + SLACK_SECONDS_PER_LOAD;
  const perRound = servers * (options.durationSeconds + SLACK_SECONDS_PER_LOAD);
  return servers * perServer + options.rounds * perRound + 60;
}

async function run(options: Options): Promise<void> {
  const startedAt = new Date();
  const loadAverageAtStart = os.loadavg();
  const warnings: string[] = [];
  const { redis, url: redisUrl, isPrivate } = await openRedis();
  const prefix = `bench:${Date.now().toString(36)}:`;
  try {
    if (!isPrivate) {
      warnings.push(
        'REDIS_URL is shared: other clients count in commandstats, so cmds/check is not exact',
      );
    }
    const wanted = options.only ?? [...TARGET_IDS];
    const unavailable: Partial<Record<TargetId, string>> = {};
    let apiKey = PLACEHOLDER_KEY;
    if (wanted.includes('a')) {
      const sluice = await prepareSluice(redis, prefix);
      if ('unavailable' in sluice) {
        if (options.only) throw new Error(`(a) unavailable: ${sluice.unavailable}`);
        unavailable.a = sluice.unavailable;
        log(`(a) unavailable: ${sluice.unavailable}. Running b, c, d.`);
      } else {
        apiKey = sluice.apiKey;
      }
    }
    const ids = wanted.filter((id) => unavailable[id] === undefined);
    if (ids.length === 0) throw new Error('no server to run');

    const profileDir = (id: TargetId) =>
      path.join(RESULTS_DIR, `${fileStamp(startedAt)}-profiles`, id);
    const servers: Running[] = [];
    for (const id of ids) {
      log(`starting ${TARGETS[id].label} on CPU 0`);
      const nodeFlags = options.cpuProf ? cpuProfFlags(profileDir(id)) : [];
      servers.push(await startTarget(TARGETS[id], { redisUrl, prefix, apiKey, nodeFlags }));
    }
    /** Every request each server answered, warm-up included: what its profile covers. */
    const answered = new Map<TargetId, number>();
    const count = (id: TargetId, load: LoadResult) =>
      answered.set(id, (answered.get(id) ?? 0) + load.answered);
    if (options.warmupSeconds > 0) {
      for (const server of servers) {
        log(`warm-up ${server.target.label}: ${options.warmupSeconds} s`);
        count(
          server.target.id,
          await runLoad(server, options.connections, options.warmupSeconds, apiKey),
        );
      }
    }

    const rounds: RoundResult[] = [];
    for (let round = 1; round <= options.rounds; round++) {
      for (const server of servers) {
        const before = await commandStats(redis);
        const cpuBefore = cpuSeconds(server.process.pid);
        const load = await runLoad(server, options.connections, options.durationSeconds, apiKey);
        count(server.target.id, load);
        await sleep(SETTLE_MS);
        const cpuUsPerRequest =
          ((cpuSeconds(server.process.pid) - cpuBefore) * 1e6) / load.answered;
        const issued = issuedCommands(before, await commandStats(redis), server.target.profile);
        const result: RoundResult = {
          round,
          id: server.target.id,
          load,
          // Sent, not answered: autocannon stops with up to `connections` requests in flight and
          // the server still decides them (their commands are in the delta, their answers not).
          redis: { ...issued, perCheck: issued.issued / load.sent },
          cpuUsPerRequest,
        };
        rounds.push(result);
        log(describeRound(result, options.rounds));
        warnings.push(...roundWarnings(result));
      }
    }
    if (ids.includes('a') && ids.length > 1) {
      warnings.push(
        '(a) stays up during the other rounds: its background Redis traffic counts in theirs',
      );
    }

    const summaries = ids.map((id) => summarize(id, rounds));
    const table = markdownTable(summaries);
    process.stdout.write(`\n${table}\n\n`);
    process.stdout.write(
      `${options.rounds} rounds × ${options.durationSeconds} s, -c ${options.connections}, ` +
        `pipelining 1, ${IDENTIFIER_COUNT} identifiers; medians over rounds. ` +
        `Load average ${loadAverageAtStart.map((x) => x.toFixed(2)).join(' ')} at start.\n`,
    );
    for (const [id, reason] of Object.entries(unavailable)) {
      process.stdout.write(`(${id}) not run: ${reason}\n`);
    }
    for (const warning of new Set(warnings)) process.stdout.write(`warning: ${warning}\n`);

    if (options.cpuProf) {
      for (const server of servers) {
        // the profile is written when the server exits
        await stop(server.process);
        const summary = summarizeProfile(
          readProfile(profileDir(server.target.id)),
          answered.get(server.target.id) ?? 0,
        );
        process.stdout.write(`\n${formatSummary(server.target.label, summary)}\n`);
      }
      process.stdout.write(
        `profiles: ${path.relative(process.cwd(), path.dirname(profileDir('a')))}\n`,
      );
    }

    const file = path.join(RESULTS_DIR, `${fileStamp(startedAt)}.json`);
    mkdirSync(RESULTS_DIR, { recursive: true });
    const raw = {
      startedAt: startedAt.toISOString(),
      finishedAt: new Date().toISOString(),
      argv: process.argv.slice(2),
      options,
      machine: machine(await redis.info('server'), loadAverageAtStart),
      redis: { private: isPrivate },
      limit: BENCH_LIMIT,
      identifiers: IDENTIFIER_COUNT,
      unavailable,
      summaries,
      rounds,
      warnings: [...new Set(warnings)],
      table,
    };
    writeFileSync(file, `${JSON.stringify(raw, null, 2)}\n`);
    process.stdout.write(`raw results: ${path.relative(process.cwd(), file)}\n`);
  } finally {
    if (!isPrivate) await deleteKeys(redis, prefix);
    redis.disconnect();
  }
}

const fileStamp = (date: Date): string => date.toISOString().replace(/[:.]/g, '-');

/** A private `redis-server` on CPU 1 unless REDIS_URL names one. */
async function openRedis(): Promise<{ redis: Redis; url: string; isPrivate: boolean }> {
  const shared = process.env.REDIS_URL;
  if (shared) {
    const redis = new Redis(shared, { lazyConnect: true });
    await redis.connect();
    return { redis, url: shared, isPrivate: false };
  }
  const port = await freePort();
  const server = spawnPinned('redis-server', LOAD_CPU, 'redis-server', [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
  ]);
  const redis = await waitFor('connection', server, () => tryConnect(port), 10_000);
  return { redis, url: `redis://127.0.0.1:${port}`, isPrivate: true };
}

async function tryConnect(port: number): Promise<Redis | undefined> {
  const redis = new Redis({
    port,
    host: '127.0.0.1',
    lazyConnect: true,
    retryStrategy: () => null,
  });
  // connect() rejects with the same error; without a listener ioredis would also print it
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return redis;
  } catch {
    redis.disconnect();
    return undefined;
  }
}

async function deleteKeys(redis: Redis, prefix: string): Promise<void> {
  for await (const keys of redis.scanStream({ match: `${prefix}*`, count: 1000 })) {
    const batch = keys as string[];
    if (batch.length > 0) await redis.unlink(...batch);
  }
}

/** autocannon in its own process on CPU 1; killed by PID if it overruns. */
async function runLoad(
  server: Running,
  connections: number,
  durationSeconds: number,
  apiKey: string,
): Promise<LoadResult> {
  const config: LoadConfig = { url: server.origin, connections, durationSeconds, apiKey };
  const child = spawnPinned(`autocannon → ${server.target.label}`, LOAD_CPU, process.execPath, [
    ...TS_NODE_ARGS,
    LOAD_SCRIPT,
    JSON.stringify(config),
  ]);
  const timer = setTimeout(
    () => void stop(child),
    (durationSeconds + SLACK_SECONDS_PER_LOAD) * 1000,
  );
  const code = await child.exit;
  clearTimeout(timer);
  if (code !== 0) throw new Error(`${child.name} failed (exit ${code}):\n${child.tail()}`);
  if (server.process.exited()) {
    throw new Error(`${server.target.label} exited under load:\n${server.process.tail()}`);
  }
  return JSON.parse(child.stdout()) as LoadResult;
}

function describeRound(result: RoundResult, rounds: number): string {
  const { load, redis } = result;
  return (
    `round ${result.round}/${rounds} ${TARGETS[result.id].label}: ` +
    `${Math.round(load.requestsPerSecond)} req/s, p50 ${load.latencyMs.p50} ms, ` +
    `p99 ${load.latencyMs.p99} ms, ${redis.perCheck.toFixed(3)} Redis cmds/check, ` +
    `${result.cpuUsPerRequest.toFixed(1)} µs CPU/req`
  );
}

function roundWarnings(result: RoundResult): string[] {
  const label = `round ${result.round} ${TARGETS[result.id].label}`;
  const { load, redis } = result;
  const warnings: string[] = [];
  if (load.non2xx > 0) {
    warnings.push(`${label}: ${load.non2xx} non-2xx answers ${JSON.stringify(load.statusCodes)}`);
  }
  if (load.errors > 0) warnings.push(`${label}: ${load.errors} errors (${load.timeouts} timeouts)`);
  if (Object.keys(redis.residuals).length > 0) {
    warnings.push(
      `${label}: script commands off their profile ${JSON.stringify(redis.residuals)} ` +
        `(positive = sent by the client itself; negative = denials or another script path)`,
    );
  }
  return warnings;
}

function summarize(id: TargetId, rounds: readonly RoundResult[]): Summary {
  const mine = rounds.filter((result) => result.id === id);
  const perSecond = mine.map((r) => r.load.requestsPerSecond);
  return {
    id,
    label: TARGETS[id].label,
    requestsPerSecond: median(perSecond),
    requestsPerSecondRange: [Math.min(...perSecond), Math.max(...perSecond)],
    p50Ms: median(mine.map((r) => r.load.latencyMs.p50)),
    p99Ms: median(mine.map((r) => r.load.latencyMs.p99)),
    commandsPerCheck: median(mine.map((r) => r.redis.perCheck)),
    cpuUsPerRequest: median(mine.map((r) => r.cpuUsPerRequest)),
  };
}

function machine(redisInfo: string, loadAverageAtStart: number[]): Record<string, unknown> {
  let commit: string | undefined;
  try {
    commit = execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    commit = undefined;
  }
  return {
    node: process.version,
    redis: /redis_version:(\S+)/.exec(redisInfo)?.[1],
    cpus: os.cpus().map((cpu) => cpu.model),
    loadAverageAtStart,
    loadAverageAtEnd: os.loadavg(),
    commit,
  };
}

main().catch((error: unknown) => {
  if (error instanceof UsageError) {
    process.stderr.write(`${error.message}\n${USAGE}\n`);
    process.exit(64);
  }
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  void stopAll().finally(() => process.exit(1));
});
