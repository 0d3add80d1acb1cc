import { Inject, Injectable } from '@nestjs/common';
import type { PrismaClient } from '@sluice/db';
import {
  type DataPlaneBeat,
  type InstanceBeat,
  readHeartbeats,
  redisTimeMs,
  RedisService,
} from '@sluice/nest-kit';
import { readTenantVersions } from '@sluice/policy';
import { z } from 'zod';
import { PRISMA } from '../database/prisma.token';
import { ENV, type Env } from '../env';
import { parseInput } from '../graphql/input';
import type {
  DataPlaneInstance,
  PlatformPublication,
  PlatformRange,
  PlatformTraffic,
  ServiceInstance,
  WorkerInstance,
} from './models/platform.model';
import { platformTraffic } from './platform-traffic';

export const MAX_TOP_TENANTS = 50;
/** Instances of each service listed at most, the latest beat first. */
const MAX_INSTANCES = 50;
const MAX_BEHIND_IDS = 10;

const topSchema = z
  .number()
  .int()
  .min(1, `must be between 1 and ${MAX_TOP_TENANTS}`)
  .max(MAX_TOP_TENANTS, `must be between 1 and ${MAX_TOP_TENANTS}`);

/**
 * What the platform view shows operators (the resolver admits no one else): traffic across
 * tenants from the roll-ups, the outbox's publication lag, and the data planes and workers as
 * their heartbeats in Redis tell.
 */
@Injectable()
export class PlatformService {
  private readonly prefix: string;

  constructor(
    @Inject(PRISMA) private readonly prisma: PrismaClient,
    private readonly redis: RedisService,
    @Inject(ENV) env: Env,
  ) {
    this.prefix = env.SLUICE_KEY_PREFIX;
  }

  async now(): Promise<Date> {
    return new Date(await redisTimeMs(this.redis.client));
  }

  traffic(range: PlatformRange, top: number): Promise<PlatformTraffic> {
    return platformTraffic(this.prisma, range, parseInput(topSchema, top, 'top'), Date.now());
  }

  async publication(): Promise<PlatformPublication> {
    const pending = { processedAt: null };
    // each read walks an index: the pending rows' partial index, or the primary key backwards
    const [count, retrying, oldest, published, failed] = await Promise.all([
      this.prisma.outboxEvent.count({ where: pending }),
      this.prisma.outboxEvent.count({ where: { ...pending, attempts: { gt: 0 } } }),
      this.prisma.outboxEvent.findFirst({
        where: pending,
        orderBy: { id: 'asc' },
        select: { createdAt: true },
      }),
      this.prisma.outboxEvent.findFirst({
        where: { processedAt: { not: null } },
        orderBy: { id: 'desc' },
        select: { processedAt: true },
      }),
      this.prisma.outboxEvent.findFirst({
        where: { ...pending, lastError: { not: null } },
        orderBy: { id: 'desc' },
        select: { lastError: true, tenantId: true },
      }),
    ]);
    return {
      pending: count,
      retrying,
      oldestPendingAt: oldest?.createdAt ?? null,
      lastPublishedAt: published?.processedAt ?? null,
      lastError: failed?.lastError ?? null,
      lastErrorTenantId: failed?.tenantId ?? null,
    };
  }

  async dataPlanes(): Promise<DataPlaneInstance[]> {
    const listed = await readHeartbeats(
      this.redis.client,
      this.prefix,
      'data-plane',
      MAX_INSTANCES,
    );
    const ids = new Set<string>();
    for (const { beat } of listed) {
      for (const id of Object.keys(beat?.details.cache.versions ?? {})) ids.add(id);
    }
    const published =
      ids.size === 0
        ? new Map<string, number | undefined>()
        : await readTenantVersions(this.redis.client, this.prefix, [...ids]);
    return listed.map((listedBeat) => toDataPlane(listedBeat, published));
  }

  async workers(): Promise<WorkerInstance[]> {
    const listed = await readHeartbeats(this.redis.client, this.prefix, 'worker', MAX_INSTANCES);
    return listed.map((listedBeat) => ({
      ...toInstance(listedBeat),
      queues: listedBeat.beat?.details.queues ?? [],
    }));
  }
}

function toInstance({ instance, live, lastSeenAt, beat }: InstanceBeat<unknown>): ServiceInstance {
  return {
    instance,
    live,
    lastSeenAt: new Date(lastSeenAt),
    version: beat?.version ?? null,
    host: beat?.host ?? null,
    startedAt: beat ? new Date(beat.startedAt) : null,
  };
}

function toDataPlane(
  listed: InstanceBeat<DataPlaneBeat>,
  published: ReadonlyMap<string, number | undefined>,
): DataPlaneInstance {
  const details = listed.beat?.details;
  if (!details) {
    return {
      ...toInstance(listed),
      checksPerSecond: null,
      deniedPerSecond: null,
      checks: null,
      redis: null,
      cache: null,
      pendingUsage: null,
    };
  }
  const behind = Object.entries(details.cache.versions)
    .filter(([id, version]) => version < (published.get(id) ?? 0))
    .map(([id]) => id);
  return {
    ...toInstance(listed),
    checksPerSecond: details.perSecond.checks,
    deniedPerSecond: details.perSecond.denied,
    checks: details.decisions.allowed + details.decisions.denied,
    redis: {
      connections: Object.entries(details.redis.connections).map(([role, status]) => ({
        role,
        status,
      })),
      roundTripMs: details.redis.roundTripMs,
      clockUncertaintyMs: details.redis.clockUncertaintyMs,
      openCircuits: details.redis.openCircuits,
    },
    cache: {
      tenants: details.cache.tenants,
      keys: details.cache.keys,
      behind: behind.length,
      behindTenantIds: behind.slice(0, MAX_BEHIND_IDS),
    },
    pendingUsage: details.usage.pendingEntries,
  };
}
