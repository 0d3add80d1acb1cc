import { encryptSecret, generateSigningSecret, publishWebhookEndpoints } from '@sluice/webhooks';
import calculateSlot from 'cluster-key-slot';
import { Cluster, Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  parseQuotaAlert,
  quotaAlertStreamKey,
  readActivePolicies,
  readDecisionLog,
  readKeyLastUsed,
  readSeconds,
  readTopCost,
  readTopDenied,
  usageActiveKey,
  UsageRecorder,
} from '../src/index';
import { clusterSlotOwner } from '../src/slots';
import {
  BASE_MS,
  BASE_SECOND,
  decision,
  denial,
  startRedisCluster,
  whenReady,
  type RedisClusterServers,
} from './support';

let servers: RedisClusterServers;
let cluster: Cluster;

beforeAll(async () => {
  servers = await startRedisCluster();
  cluster = new Cluster([{ host: '127.0.0.1', port: servers.ports[0]! }]);
  await whenReady(cluster);
});

afterAll(async () => {
  await cluster?.quit();
  await servers?.stop();
});

describe('flushing to a Redis Cluster', () => {
  it('sends one pipeline per node and every tenant lands on its own slot', async () => {
    const tenants = Array.from({ length: 24 }, (_, i) => `tnt_${i}`);
    const usage = new UsageRecorder({ redis: cluster, prefix: 'c:', allowSampleRate: 1 });
    for (const tenantId of tenants) {
      usage.record(decision({ tenantId }));
      usage.record(decision({ tenantId, at: BASE_MS + 1000, cost: 3 }));
      usage.record(denial({ tenantId, identifier: `${tenantId}-abuser` }));
    }
    const owner = clusterSlotOwner(cluster);
    const nodesUsed = new Set(tenants.map((tenantId) => owner(calculateSlot(tenantId))));
    expect(nodesUsed.size).toBe(3);

    const pipeline = vi.spyOn(cluster, 'pipeline');
    await usage.flush();
    expect(pipeline).toHaveBeenCalledTimes(3);
    expect(usage.stats()).toMatchObject({ flushes: 1, flushFailures: 0 });

    const minute = BASE_MS / 60_000;
    for (const tenantId of tenants) {
      const rows = await readSeconds(cluster, 'c:', tenantId, 'api', BASE_SECOND, BASE_SECOND + 1);
      expect(rows.map((row) => [row.allowed, row.denied, row.cost])).toEqual([
        [1, 1, 1],
        [1, 0, 3],
      ]);
      expect(await readTopDenied(cluster, 'c:', tenantId, 'api', minute, minute, 5)).toEqual([
        { identifier: `${tenantId}-abuser`, denied: 1 },
      ]);
      // both allowed checks were user-1's: 1 + 3
      expect(await readTopCost(cluster, 'c:', tenantId, 'api', minute, minute, 5)).toEqual([
        { identifier: 'user-1', cost: 4 },
      ]);
      const { entries } = await readDecisionLog(cluster, 'c:', tenantId, 'api', { count: 10 });
      expect(entries).toHaveLength(3);
      expect(await readKeyLastUsed(cluster, 'c:', tenantId)).toEqual([
        { keyId: 'key_1', lastUsedAt: BASE_MS + 1000 },
      ]);
    }

    // one active set for the minute, on its own slot, naming every tenant
    expect(await readActivePolicies(cluster, 'c:', minute)).toMatchObject({
      active: [...tenants].sort().map((tenantId) => ({ tenantId, policy: 'api' })),
    });

    // each master holds exactly the keys of the tenants whose slots it serves
    for (const node of cluster.nodes('master')) {
      const keys = (await scanAll(node)).filter((key) => key !== usageActiveKey('c:', minute));
      const served = tenants.filter(
        (tenantId) => owner(calculateSlot(tenantId))?.split(';')[0] === nodeKey(node),
      );
      // two seconds, the top denied, the top cost, the log, last-used
      expect(keys.length).toBe(served.length * 6);
      for (const key of keys)
        expect(served.some((tenantId) => key.includes(`{${tenantId}}`))).toBe(true);
    }
  });
});

describe('threshold alerts on a Redis Cluster', () => {
  it("claims in each tenant's slot within the flush pipelines, then streams once to the stream's node", async () => {
    const prefix = 'ca:';
    const key = randomBytes(32);
    const tenants = Array.from({ length: 12 }, (_, i) => `tnt_${i}`);
    for (const tenantId of tenants) {
      const id = `wh_${tenantId}`;
      await publishWebhookEndpoints(cluster, prefix, tenantId, [
        {
          id,
          tenantId,
          name: 'hooks',
          url: 'https://hooks.example.com/in',
          leakRatePerSec: 1,
          queueCapacity: 10,
          maxAttempts: 3,
          enabled: true,
          pausedUntil: null,
          secretCiphertext: encryptSecret(key, generateSigningSecret(), {
            tenantId,
            endpointId: id,
          }),
        },
      ]);
    }
    const rules = [
      {
        name: 'hourly',
        algorithm: 'fixed_window',
        limit: 10,
        remaining: 0,
        resetAt: Math.ceil(BASE_MS / 3_600_000 + 1) * 3_600_000,
        windowMs: 3_600_000,
      },
    ];
    const planes = [0, 1].map(() => new UsageRecorder({ redis: cluster, prefix }));
    for (const plane of planes) {
      // one check of cost 10 crosses both thresholds
      for (const tenantId of tenants) plane.record(decision({ tenantId, cost: 10, rules }));
    }
    // (the spy of the test above, if it ran, counts on: start from zero)
    const pipeline = vi.spyOn(cluster, 'pipeline');
    pipeline.mockClear();
    await planes[0]!.flush();
    // three nodes' flush pipelines (claims included), then one XADD pipeline
    expect(pipeline).toHaveBeenCalledTimes(4);
    pipeline.mockRestore();
    await planes[1]!.flush();

    const entries = await cluster.xrange(quotaAlertStreamKey(prefix), '-', '+');
    const alerts = entries.map(([, fields]) => parseQuotaAlert(fields));
    expect(alerts.map((alert) => `${alert?.tenantId}/${alert?.threshold}`).sort()).toEqual(
      tenants.flatMap((tenantId) => [`${tenantId}/100`, `${tenantId}/80`]).sort(),
    );
    expect(planes.map((plane) => plane.stats().alertsClaimed)).toEqual([24, 0]);
    expect(planes[1]!.stats().alertsDuplicate).toBe(24);
  });
});

function nodeKey(node: Redis): string {
  return `${node.options.host}:${node.options.port}`;
}

async function scanAll(node: Redis): Promise<string[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, found] = await node.scan(cursor, 'MATCH', 'c:*', 'COUNT', 500);
    cursor = next;
    keys.push(...found);
  } while (cursor !== '0');
  return keys;
}
