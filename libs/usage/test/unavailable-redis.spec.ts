import { freePort, OwnRedisServer } from '@sluice/testing';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  readDecisionLog,
  readKeyLastUsed,
  readSeconds,
  readTopDenied,
  UsageFlushError,
  UsageRecorder,
} from '../src/index';
import { BASE_MS, BASE_SECOND, decision, denial, whenReady } from './support';

const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A client for a port where no Redis listens (yet): commands fail at once, it keeps reconnecting. */
async function unreachableClient(): Promise<{ client: Redis; port: number }> {
  const port = await freePort();
  const client = new Redis({
    host: '127.0.0.1',
    port,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => 50,
  });
  client.on('error', () => undefined); // connection refusals are the point here
  cleanups.push(async () => client.disconnect());
  return { client, port };
}

async function commandCalls(client: Redis, command: string): Promise<number> {
  const info = await client.info('commandstats');
  const match = new RegExp(`cmdstat_${command}:calls=(\\d+)`).exec(info);
  return Number(match?.[1] ?? 0);
}

describe('a flush while Redis is down', () => {
  it('keeps the counts, and the first flush to a live Redis writes them exactly once', async () => {
    const { client, port } = await unreachableClient();
    const usage = new UsageRecorder({ redis: client, prefix: 'u:', allowSampleRate: 0 });
    const minute = BASE_MS / 60_000;

    for (let i = 0; i < 30; i += 1) usage.record(decision({ at: BASE_MS + (i % 3) * 1000 }));
    for (let i = 0; i < 12; i += 1)
      usage.record(denial({ identifier: `u-${i % 4}`, at: BASE_MS + i }));
    usage.record(decision({ keyId: 'key_9', at: BASE_MS + 2500 }));
    await expect(usage.flush()).rejects.toBeInstanceOf(UsageFlushError);
    expect(usage.stats()).toMatchObject({ flushes: 0, flushFailures: 1 });
    expect(usage.stats().pendingEntries).toBeGreaterThan(0);

    // more usage while down, and a second failed flush: both merge with what was kept
    for (let i = 0; i < 10; i += 1) usage.record(decision({ at: BASE_MS + 1000 }));
    usage.record(denial({ identifier: 'u-0', at: BASE_MS + 1500 }));
    await expect(usage.flush()).rejects.toThrow(/commands failed/);

    const server = await OwnRedisServer.create({ port });
    cleanups.push(() => server.destroy());
    await whenReady(client);
    await usage.flush();
    expect(usage.stats()).toMatchObject({ flushes: 1, flushFailures: 2, pendingEntries: 0 });

    const rows = await readSeconds(client, 'u:', 'tnt_a', 'api', BASE_SECOND, BASE_SECOND + 2);
    expect(rows.map((row) => [row.allowed, row.denied, row.cost])).toEqual([
      [10, 12, 10],
      [20, 1, 20],
      [11, 0, 11],
    ]);
    expect(await readTopDenied(client, 'u:', 'tnt_a', 'api', minute, minute, 10)).toEqual([
      { identifier: 'u-0', denied: 4 },
      { identifier: 'u-1', denied: 3 },
      { identifier: 'u-2', denied: 3 },
      { identifier: 'u-3', denied: 3 },
    ]);
    const { entries } = await readDecisionLog(client, 'u:', 'tnt_a', 'api', { count: 100 });
    expect(entries).toHaveLength(13);
    // retried entries keep their place ahead of those recorded while Redis was down
    expect(entries.map((entry) => entry.at)).toEqual(
      [...entries.map((entry) => entry.at)].sort((a, b) => b - a),
    );
    expect(await readKeyLastUsed(client, 'u:', 'tnt_a')).toEqual([
      { keyId: 'key_9', lastUsedAt: BASE_MS + 2500 },
      { keyId: 'key_1', lastUsedAt: BASE_MS + 2000 },
    ]);

    // every hash field went out once: 3 seconds × (allowed, cost) + 2 seconds × (denied:rule,
    // denied_by:<rule>)
    expect(await commandCalls(client, 'hincrby')).toBe(10);
    const pipeline = vi.spyOn(client, 'pipeline');
    await usage.flush();
    expect(pipeline).not.toHaveBeenCalled();
    expect(await commandCalls(client, 'hincrby')).toBe(10);
  });

  it('reports timer flush failures to onFlushError and catches up once Redis is back', async () => {
    const { client, port } = await unreachableClient();
    const errors: Error[] = [];
    const usage = new UsageRecorder({
      redis: client,
      prefix: 'u:',
      flushIntervalMs: 20,
      onFlushError: (error) => errors.push(error),
    });
    cleanups.push(() => usage.stop());
    usage.start();
    for (let i = 0; i < 5; i += 1) usage.record(decision());
    await vi.waitFor(() => expect(errors.length).toBeGreaterThan(1), { timeout: 30_000 });
    expect(errors[0]).toBeInstanceOf(UsageFlushError);

    const server = await OwnRedisServer.create({ port });
    cleanups.push(() => server.destroy());
    await vi.waitFor(() => expect(usage.stats().flushes).toBe(1), { timeout: 30_000 });
    const [row] = await readSeconds(client, 'u:', 'tnt_a', 'api', BASE_SECOND, BASE_SECOND);
    expect(row?.allowed).toBe(5);
  });

  it('holds at most maxPendingEntries and counts what it dropped', async () => {
    const { client } = await unreachableClient();
    const usage = new UsageRecorder({ redis: client, prefix: 'u:', maxPendingEntries: 50 });
    for (let i = 0; i < 1000; i += 1) usage.record(decision({ at: BASE_MS + i * 1000 }));
    for (let attempt = 0; attempt < 3; attempt += 1) {
      await expect(usage.flush()).rejects.toBeInstanceOf(UsageFlushError);
      for (let i = 0; i < 100; i += 1) usage.record(decision({ at: BASE_MS - i * 1000 }));
    }
    const stats = usage.stats();
    expect(stats.eventsRecorded).toBe(1300);
    expect(stats.pendingEntries).toBeLessThanOrEqual(50);
    expect(stats.droppedOverCap).toBeGreaterThan(1000);
  });

  it('drops retried usage once it is past retention, but keeps last-used times', async () => {
    const { client } = await unreachableClient();
    let now = BASE_MS;
    const usage = new UsageRecorder({
      redis: client,
      prefix: 'u:',
      retentionSeconds: 60,
      allowSampleRate: 1,
      clock: () => now,
    });
    usage.record(decision());
    usage.record(denial());
    await expect(usage.flush()).rejects.toBeInstanceOf(UsageFlushError);
    expect(usage.stats().droppedExpired).toBe(0);

    now = BASE_MS + 120_000;
    await expect(usage.flush()).rejects.toBeInstanceOf(UsageFlushError);
    const stats = usage.stats();
    // the second's 4 fields and EXPIREAT, the minute's denied and charged identifier with a trim
    // and EXPIREAT each, 2 log entries, the active set's SADD and EXPIREAT
    expect(stats.droppedExpired).toBe(15);
    // what is left: tenant, policy, last-used time; the log's EXPIRE stays pending
    expect(stats.pendingEntries).toBe(3);
  });
});
