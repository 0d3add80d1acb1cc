import { ArgsType, Field, Float, ID, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import { UsageResolution } from '../../usage/models/usage.model';

export enum PlatformRange {
  HOUR = 'HOUR',
  DAY = 'DAY',
  WEEK = 'WEEK',
}
registerEnumType(PlatformRange, {
  name: 'PlatformRange',
  description:
    'HOUR: the last hour by minute. DAY: the last 24 hours by hour. WEEK: 7 days by hour.',
});

// Counts are Float: GraphQL's Int has 32 bits, counts over long ranges may not.
const COUNT = 'An integer (a Float, as it may exceed 32 bits).';

@ArgsType()
export class PlatformTrafficArgs {
  @Field(() => PlatformRange, { defaultValue: PlatformRange.HOUR })
  range!: PlatformRange;

  @Field(() => Int, { defaultValue: 10, description: 'Tenants in each top list, 1 to 50.' })
  top!: number;
}

@ObjectType({ description: 'Checks decided in one bucket, every tenant together.' })
export class PlatformPoint {
  @Field({ description: 'Start of the bucket.' })
  at!: Date;

  @Field(() => Float, { description: COUNT })
  allowed!: number;

  @Field(() => Float, { description: COUNT })
  denied!: number;
}

@ObjectType({ description: "One tenant's checks over the range." })
export class TenantTraffic {
  @Field(() => ID)
  tenantId!: string;

  @Field(() => String, { nullable: true, description: 'Null when the tenant was deleted since.' })
  name!: string | null;

  @Field(() => Float, { description: COUNT })
  allowed!: number;

  @Field(() => Float, { description: COUNT })
  denied!: number;
}

@ObjectType({
  description:
    "Checks across tenants from the worker's roll-ups (complete minutes): the running minute and the one before arrive with the worker's next run.",
})
export class PlatformTraffic {
  @Field(() => PlatformRange)
  range!: PlatformRange;

  @Field(() => UsageResolution, { description: 'MINUTE or HOUR.' })
  resolution!: UsageResolution;

  @Field()
  from!: Date;

  @Field()
  to!: Date;

  @Field(() => Date, {
    nullable: true,
    description: 'The end of the latest rolled-up minute in the range (null: none yet).',
  })
  rolledUpTo!: Date | null;

  @Field(() => [PlatformPoint], { description: 'Every bucket of the range, zeros included.' })
  points!: PlatformPoint[];

  @Field(() => Float, { description: COUNT })
  allowed!: number;

  @Field(() => Float, { description: COUNT })
  denied!: number;

  @Field(() => Int, { description: 'Tenants with at least one check in the range.' })
  activeTenants!: number;

  @Field(() => [TenantTraffic], { description: 'Most checks (allowed and denied) first.' })
  topByChecks!: TenantTraffic[];

  @Field(() => [TenantTraffic], {
    description: 'Most denied first; tenants without denials left out.',
  })
  topByDenied!: TenantTraffic[];
}

@ObjectType({ description: 'The outbox the relay publishes tenants to Redis from.' })
export class PlatformPublication {
  @Field(() => Int, { description: 'Events waiting to be published.' })
  pending!: number;

  @Field(() => Int, { description: 'Waiting events whose publishing failed at least once.' })
  retrying!: number;

  @Field(() => Date, {
    nullable: true,
    description: 'When the oldest waiting event was written: its age is the publication lag.',
  })
  oldestPendingAt!: Date | null;

  @Field(() => Date, {
    nullable: true,
    description: 'When the relay last published an event (null: never).',
  })
  lastPublishedAt!: Date | null;

  @Field(() => String, {
    nullable: true,
    description: 'Why the newest waiting event that failed did (null: none failed).',
  })
  lastError!: string | null;

  @Field(() => ID, { nullable: true, description: 'The tenant of that event.' })
  lastErrorTenantId!: string | null;
}

@ObjectType()
export class ConnectionState {
  @Field({ description: 'engine (checks), changes (the change channel) or usage.' })
  role!: string;

  @Field({ description: "ioredis' status: ready when usable." })
  status!: string;
}

@ObjectType({ description: "A data plane's Redis as it reported it." })
export class DataPlaneRedis {
  @Field(() => [ConnectionState])
  connections!: ConnectionState[];

  @Field(() => Float, { description: 'Round trip of its latest heartbeat (ms).' })
  roundTripMs!: number;

  @Field(() => Float, {
    nullable: true,
    description: 'How far its Redis clock may be off (ms); null before the first sync.',
  })
  clockUncertaintyMs!: number | null;

  @Field(() => Int, { description: 'Policies whose circuit is open (checks in fail mode).' })
  openCircuits!: number;
}

@ObjectType({ description: "A data plane's policy cache." })
export class DataPlaneCache {
  @Field(() => Int)
  tenants!: number;

  @Field(() => Int)
  keys!: number;

  @Field(() => Int, {
    description:
      'Cached tenants (of the 500 most recently used it reports) at a version older than the one in Redis when read: usually 0; a publish a moment before the heartbeat may show for one beat.',
  })
  behind!: number;

  @Field(() => [ID], { description: 'Up to 10 of those tenants.' })
  behindTenantIds!: string[];
}

@ObjectType({
  description: 'A service process as its heartbeats tell (written every few seconds).',
})
export class ServiceInstance {
  @Field({ description: 'host-pid-random, new at every start.' })
  instance!: string;

  @Field({ description: 'It beat within three of its intervals.' })
  live!: boolean;

  @Field()
  lastSeenAt!: Date;

  @Field(() => String, {
    nullable: true,
    description: 'Null when its last beat expired or is of another release.',
  })
  version!: string | null;

  @Field(() => String, { nullable: true })
  host!: string | null;

  @Field(() => Date, { nullable: true })
  startedAt!: Date | null;
}

@ObjectType()
export class DataPlaneInstance extends ServiceInstance {
  @Field(() => Float, { nullable: true, description: 'Checks per second over its last interval.' })
  checksPerSecond!: number | null;

  @Field(() => Float, { nullable: true, description: 'Denials per second over its last interval.' })
  deniedPerSecond!: number | null;

  @Field(() => Float, { nullable: true, description: `Checks since it started. ${COUNT}` })
  checks!: number | null;

  @Field(() => DataPlaneRedis, { nullable: true })
  redis!: DataPlaneRedis | null;

  @Field(() => DataPlaneCache, { nullable: true })
  cache!: DataPlaneCache | null;

  @Field(() => Int, { nullable: true, description: 'Usage entries waiting to be flushed.' })
  pendingUsage!: number | null;
}

@ObjectType({ description: 'A BullMQ queue as a worker saw it.' })
export class WorkerQueue {
  @Field()
  name!: string;

  @Field({ description: 'Its BullMQ worker is running in this process.' })
  running!: boolean;

  @Field(() => Int)
  waiting!: number;

  @Field(() => Int)
  active!: number;

  @Field(() => Int)
  delayed!: number;

  @Field(() => Int)
  failed!: number;
}

@ObjectType()
export class WorkerInstance extends ServiceInstance {
  @Field(() => [WorkerQueue])
  queues!: WorkerQueue[];
}

@ObjectType({ description: 'The whole platform, for operators.' })
export class Platform {
  @Field({ description: 'When this was read (the Redis clock).' })
  at!: Date;
}
