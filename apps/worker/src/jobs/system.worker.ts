import { Inject, Injectable } from '@nestjs/common';
import { ENV, type Env } from '../env';
import { RedisService } from '@sluice/nest-kit';
import { bullmqOptions } from './bullmq-options';
import { QueueWorker } from './queue-worker.base';

export const SYSTEM_QUEUE = 'sluice-system';

/** Maintenance jobs (e.g. usage roll-ups) get their handlers here as they are built; none yet. */
@Injectable()
export class SystemWorker extends QueueWorker {
  constructor(@Inject(ENV) env: Env, redis: RedisService) {
    super(SYSTEM_QUEUE, {}, bullmqOptions(env), redis);
  }
}
