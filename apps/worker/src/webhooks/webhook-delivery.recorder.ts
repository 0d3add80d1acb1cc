import { Inject, Injectable, Logger } from '@nestjs/common';
import { type DeliveryStatus, newId, Prisma, type PrismaClient } from '@sluice/db';
import { setTimeout as sleep } from 'node:timers/promises';
import { PRISMA } from '../database/prisma.token';

export interface AttemptRecord {
  endpointId: string;
  eventId: string;
  eventType: string;
  /** 1, 2, … over every run of the event (a replay goes on numbering). */
  attempt: number;
  status: Extract<DeliveryStatus, 'delivered' | 'failed' | 'dead'>;
  responseCode: number | undefined;
  latencyMs: number | undefined;
  error: string | undefined;
}

const RETRY_DELAYS_MS = [100, 500, 2000];

/**
 * One `WebhookDelivery` row per attempt. An attempt repeated after a crash keeps its number, so
 * its row is written once (the unique (eventId, attempt) skips the duplicate). PostgreSQL failing
 * does not stop deliveries: the write is retried a few times, then logged and counted.
 */
@Injectable()
export class WebhookDeliveryRecorder {
  private readonly logger = new Logger('WebhookDeliveryRecorder');

  constructor(@Inject(PRISMA) private readonly prisma: PrismaClient) {}

  /** False when the row could not be written (the endpoint is gone, or PostgreSQL failed). */
  async record(attempt: AttemptRecord): Promise<boolean> {
    const data = {
      id: newId('webhookDelivery'),
      endpointId: attempt.endpointId,
      eventId: attempt.eventId,
      eventType: attempt.eventType,
      attempt: attempt.attempt,
      status: attempt.status,
      responseCode: attempt.responseCode ?? null,
      latencyMs: attempt.latencyMs ?? null,
      error: attempt.error ?? null,
    };
    for (let i = 0; ; i += 1) {
      try {
        await this.prisma.webhookDelivery.createMany({ data: [data], skipDuplicates: true });
        return true;
      } catch (error) {
        // the endpoint row was deleted while its events were still queued
        if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2003') {
          return false;
        }
        const wait = RETRY_DELAYS_MS[i];
        if (wait === undefined) {
          this.logger.error(
            `attempt ${attempt.attempt} of ${attempt.eventId} not recorded: ${String(error)}`,
          );
          return false;
        }
        await sleep(wait);
      }
    }
  }
}
