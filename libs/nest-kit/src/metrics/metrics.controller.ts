import { Controller, Get, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Registry } from 'prom-client';
import { probeRoutes } from '../probe-routes';

@Controller()
export class MetricsController {
  constructor(private readonly registry: Registry) {}

  /** Prometheus text exposition format. */
  @Get(probeRoutes.metrics)
  async metrics(@Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    reply.header('content-type', this.registry.contentType);
    return this.registry.metrics();
  }
}
