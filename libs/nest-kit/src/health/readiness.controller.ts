import { Controller, Get, HttpStatus, Inject, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { probeRoutes } from '../probe-routes';
import { sendProblem } from '../problem/problem-details';
import { READINESS_CHECKS } from './health.options';
import type { ReadinessCheck, ReadinessResult } from './readiness-check';

export interface Readiness {
  readonly status: 'ok';
  readonly checks: Readonly<Record<string, 'ok'>>;
}

@Controller()
export class ReadinessController {
  constructor(@Inject(READINESS_CHECKS) private readonly checks: readonly ReadinessCheck[]) {}

  /** Readiness: traffic should only come while every dependency answers. */
  @Get(probeRoutes.readiness)
  async ready(@Res() reply: FastifyReply): Promise<void> {
    const results = await Promise.all(this.checks.map(runCheck));
    const details = results.flatMap((result) => (result.ready ? [] : [result.detail]));
    if (details.length > 0) {
      sendProblem(reply, { status: HttpStatus.SERVICE_UNAVAILABLE, detail: details.join(' ') });
      return;
    }
    const readiness: Readiness = {
      status: 'ok',
      checks: Object.fromEntries(this.checks.map((check) => [check.name, 'ok'])),
    };
    reply.send(readiness);
  }
}

async function runCheck(check: ReadinessCheck): Promise<ReadinessResult> {
  try {
    return await check.check();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ready: false, detail: `${check.name}: ${message}` };
  }
}
