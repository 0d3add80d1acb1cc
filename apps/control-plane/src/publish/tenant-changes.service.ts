import { Inject, Injectable } from '@nestjs/common';
import type { Prisma, PrismaClient } from '@sluice/db';
import { PRISMA } from '../database/prisma.token';
import { OutboxRelay } from './outbox-relay.service';

/** Runs a change of tenant configuration in one transaction, then wakes the relay to publish it. */
@Injectable()
export class TenantChanges {
  constructor(
    @Inject(PRISMA) private readonly prisma: PrismaClient,
    private readonly relay: OutboxRelay,
  ) {}

  async run<T>(work: (tx: Prisma.TransactionClient) => Promise<T>): Promise<T> {
    // a plan change recompiles every tenant on the plan: longer than Prisma's 5 s default
    const result = await this.prisma.$transaction(work, { timeout: 30_000 });
    this.relay.nudge();
    return result;
  }
}
