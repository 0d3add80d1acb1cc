import { Controller, Get, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Registry } from 'prom-client';

@Controller()
export class MetricsController {
  constructor(private readonly registry: Registry) {}

  /** Prometheus text exposition format. */
  @Get('metrics')
  async metrics(@Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    reply.header('content-type', this.registry.contentType);
    return this.registry.metrics();
  }
}
