import { Injectable, type OnModuleInit } from '@nestjs/common';
import { InputError } from '@sluice/engine';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Decisions } from '../engine/decisions.service';
import { ApiServer } from '../http/api-server';
import { sendCheckResult } from '../http/decision-reply';
import { prefersGateway } from '../http/request-headers';
import { parseCheckBody } from './check.schema';

export const CHECK_PATH = '/v1/check';

interface CheckRoute {
  Querystring: { mode?: unknown };
}

/** POST /v1/check on the API instance (see `ApiServer` for why not a Nest route). */
@Injectable()
export class CheckController implements OnModuleInit {
  constructor(
    private readonly api: ApiServer,
    private readonly decisions: Decisions,
  ) {}

  onModuleInit(): void {
    this.api.fastify.post<CheckRoute>(CHECK_PATH, (request, reply) => this.check(request, reply));
  }

  /** Decides one request; a denial is a 200 result unless gateway mode was asked for. */
  check(request: FastifyRequest<CheckRoute>, reply: FastifyReply): Promise<void> {
    const preferred = prefersGateway(request.headers.prefer);
    return this.decisions.decide(
      request.headers.authorization,
      () => ({
        ...parseCheckBody(request.body),
        gateway: gatewayQuery(request.query.mode) || preferred,
      }),
      (result, { gateway }) => {
        if (preferred) reply.header('preference-applied', 'gateway');
        sendCheckResult(reply, result, gateway, CHECK_PATH);
      },
    );
  }
}

/** `?mode=gateway`; any other mode is refused rather than ignored. */
function gatewayQuery(mode: unknown): boolean {
  if (mode === undefined) return false;
  if (mode === 'gateway') return true;
  throw new InputError([{ path: 'mode', message: 'must be gateway (or leave it out)' }]);
}
