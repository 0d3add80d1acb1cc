import { Controller, Get, HttpStatus, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { RedisService } from '../redis/redis.service';
import { serviceInfo } from '../service-info';

/** Long enough for a healthy Redis on a busy host, short enough for a probe. */
const redisPingTimeoutMs = 1000;

export interface Liveness {
  status: 'ok';
  service: string;
  version: string;
}

/** RFC 9457 problem details. */
export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail: string;
}

@Controller()
export class HealthController {
  constructor(private readonly redis: RedisService) {}

  /** Liveness only: answers while the process serves HTTP, whatever its dependencies do. */
  @Get('healthz')
  liveness(): Liveness {
    return { status: 'ok', ...serviceInfo };
  }

  /** Readiness: traffic should only come while Redis answers. */
  @Get('readyz')
  async readiness(@Res() reply: FastifyReply): Promise<void> {
    if (await this.redis.ping(redisPingTimeoutMs)) {
      reply.send({ status: 'ok', checks: { redis: 'ok' } });
      return;
    }
    const problem: ProblemDetails = {
      type: 'about:blank',
      title: 'Service Unavailable',
      status: HttpStatus.SERVICE_UNAVAILABLE,
      detail: `Redis did not answer PING within ${redisPingTimeoutMs} ms.`,
    };
    reply.status(problem.status).type('application/problem+json').send(problem);
  }
}
