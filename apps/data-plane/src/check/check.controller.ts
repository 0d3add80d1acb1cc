import { Injectable, type OnModuleInit } from '@nestjs/common';
import { InputError } from '@sluice/engine';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { Decisions } from '../engine/decisions.service';
import { ApiServer } from '../http/api-server';
import { sendCheckResult } from '../http/decision-reply';
import { prefersGateway } from '../http/request-headers';
import { checkResultSchema } from '../openapi/schemas';
import { parseCheckBody } from './check.schema';

export const CHECK_PATH = '/v1/check';

/**
 * The 200 answer's JSON schema, which Fastify compiles into the body's serializer
 * (fast-json-stringify): half the time of JSON.stringify on this shape. The schema and
 * `CheckResult` are the same type (checked at compile time in ../openapi/schemas.ts), so no
 * field is left out. Problem answers (other statuses) are serialized as before.
 */
const CHECK_RESPONSE = { 200: z.toJSONSchema(checkResultSchema, { target: 'draft-7' }) };

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
    this.api.fastify.post<CheckRoute>(
      CHECK_PATH,
      { schema: { response: CHECK_RESPONSE } },
      (request, reply) => this.check(request, reply),
    );
  }

  /** Decides one request; a denial is a 200 result unless gateway mode was asked for. */
  check(request: FastifyRequest<CheckRoute>, reply: FastifyReply): Promise<void> {
    const preferred = prefersGateway(request.headers.prefer);
    let gateway = preferred;
    return this.decisions.decide(
      request.headers.authorization,
      () => {
        const body = parseCheckBody(request.body);
        // read with the body: after the key, before anything is decided
        gateway = gatewayQuery(request.query.mode) || preferred;
        return body;
      },
      (result) => {
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
