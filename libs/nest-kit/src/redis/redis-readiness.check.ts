import { Injectable } from '@nestjs/common';
import type { ReadinessCheck, ReadinessResult } from '../health/readiness-check';
import { RedisService } from './redis.service';

/** Long enough for a healthy Redis on a busy host, short enough for a probe. */
const pingTimeoutMs = 1000;

/** Ready while Redis answers PING within a second. */
@Injectable()
export class RedisReadinessCheck implements ReadinessCheck {
  readonly name = 'redis';

  constructor(private readonly redis: RedisService) {}

  async check(): Promise<ReadinessResult> {
    return (await this.redis.ping(pingTimeoutMs))
      ? { ready: true }
      : { ready: false, detail: `Redis did not answer PING within ${pingTimeoutMs} ms.` };
  }
}
