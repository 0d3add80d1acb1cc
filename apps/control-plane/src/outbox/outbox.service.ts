import { Injectable } from '@nestjs/common';
import type { OutboxEvent, Prisma } from '@sluice/db';

/** `tenant`: republish its effective policies, keys and status; `tenant-deleted`: remove it from Redis. */
export type OutboxKind = 'tenant' | 'tenant-deleted';

/**
 * The write side of the outbox: a change to what the data plane must know is recorded in the
 * same transaction as the change, so the relay publishes exactly what was committed.
 */
@Injectable()
export class OutboxService {
  enqueue(tx: Prisma.TransactionClient, tenantId: string, kind: OutboxKind): Promise<OutboxEvent> {
    return tx.outboxEvent.create({ data: { tenantId, kind } });
  }
}
