import { Inject, Injectable } from '@nestjs/common';
import type { PrismaClient } from '@sluice/db';
import type { ReadinessCheck, ReadinessResult } from '@sluice/nest-kit';
import { setTimeout as sleep } from 'node:timers/promises';
import { PRISMA } from './prisma.token';

const QUERY_TIMEOUT_MS = 1000;

/** Ready while PostgreSQL answers `SELECT 1` within a second. */
@Injectable()
export class DatabaseReadinessCheck implements ReadinessCheck {
  readonly name = 'postgres';

  constructor(@Inject(PRISMA) private readonly prisma: PrismaClient) {}

  async check(): Promise<ReadinessResult> {
    const timer = new AbortController();
    try {
      const answered = await Promise.race([
        this.prisma.$queryRaw`SELECT 1`.then(() => true),
        sleep(QUERY_TIMEOUT_MS, false, { signal: timer.signal }),
      ]);
      return answered
        ? { ready: true }
        : { ready: false, detail: `PostgreSQL did not answer within ${QUERY_TIMEOUT_MS} ms.` };
    } finally {
      timer.abort();
    }
  }
}
