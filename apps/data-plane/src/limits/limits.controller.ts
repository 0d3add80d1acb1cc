import { HttpStatus, Injectable, type OnModuleInit } from '@nestjs/common';
import { DecisionEngine, InputError, rateLimitHeaders, type InspectRequest } from '@sluice/engine';
import { fieldIssues } from '@sluice/policy';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { identifier, policyName } from '../check/check.schema';
import { ApiServer } from '../http/api-server';
import { bearerSecret } from '../http/request-headers';

/** The identifier is one URL-encoded path segment (`/` as `%2F`), decoded by the router. */
export const LIMITS_PATH = '/v1/limits/:policy/:identifier';

interface LimitsRoute {
  Params: { policy: string; identifier: string };
}

const limitsTarget = z.object({ policy: policyName, identifier });

/** GET and DELETE /v1/limits/{policy}/{identifier} on the API instance (see `ApiServer`). */
@Injectable()
export class LimitsController implements OnModuleInit {
  constructor(
    private readonly api: ApiServer,
    private readonly engine: DecisionEngine,
  ) {}

  onModuleInit(): void {
    this.api.fastify.get<LimitsRoute>(LIMITS_PATH, (request, reply) =>
      this.inspect(request, reply),
    );
    this.api.fastify.delete<LimitsRoute>(LIMITS_PATH, (request, reply) =>
      this.reset(request, reply),
    );
  }

  /** An identifier's current state under a policy, consuming nothing (same headers as a check). */
  async inspect(request: FastifyRequest<LimitsRoute>, reply: FastifyReply): Promise<void> {
    const result = await this.engine.inspect(await this.target(request));
    reply.headers(rateLimitHeaders(result)).send(result);
  }

  /** Forgets an identifier's state under a policy (admin keys only): it starts afresh. */
  async reset(request: FastifyRequest<LimitsRoute>, reply: FastifyReply): Promise<void> {
    await this.engine.reset(await this.target(request));
    reply.code(HttpStatus.NO_CONTENT).send();
  }

  private async target(request: FastifyRequest<LimitsRoute>): Promise<InspectRequest> {
    const key = await this.engine.authenticate(bearerSecret(request.headers.authorization));
    const parsed = limitsTarget.safeParse(request.params);
    if (!parsed.success) throw new InputError(fieldIssues(parsed.error));
    return { key, ...parsed.data };
  }
}
