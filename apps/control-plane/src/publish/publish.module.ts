import { Global, Module } from '@nestjs/common';
import { OutboxRelay } from './outbox-relay.service';
import { PolicyVersionsService } from './policy-versions.service';
import { Reconciler } from './reconciler.service';
import { RedisPublisher } from './redis-publisher.service';
import { TenantChanges } from './tenant-changes.service';
import { TenantStateRepository } from './tenant-state.repository';

/**
 * From PostgreSQL to Redis: versions written with each change, the outbox relay that publishes
 * them, and the reconciler that repairs what Redis lost.
 */
@Global()
@Module({
  providers: [
    TenantStateRepository,
    TenantChanges,
    PolicyVersionsService,
    RedisPublisher,
    OutboxRelay,
    Reconciler,
  ],
  exports: [
    TenantStateRepository,
    TenantChanges,
    PolicyVersionsService,
    OutboxRelay,
    Reconciler,
    RedisPublisher,
  ],
})
export class PublishModule {}
