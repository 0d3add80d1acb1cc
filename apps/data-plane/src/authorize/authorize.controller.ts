import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Decisions } from '../engine/decisions.service';
import { ApiServer } from '../http/api-server';
import { sendAuthorizeResult } from '../http/decision-reply';
import { parseAuthorizeRequest, type AuthorizeRoute } from './authorize.request';

export const AUTHORIZE_PATH = '/v1/authorize';

/** GET /v1/authorize on the API instance (see `ApiServer`). */
@Injectable()
export class AuthorizeController implements OnModuleInit {
  constructor(
    private readonly api: ApiServer,
    private readonly decisions: Decisions,
  ) {}

  onModuleInit(): void {
    this.api.fastify.get<AuthorizeRoute>(AUTHORIZE_PATH, (request, reply) =>
      this.authorize(request, reply),
    );
  }

  /**
   * For reverse proxies (NGINX `auth_request`, Traefik `forwardAuth`, Envoy `ext_authz`): one
   * check from headers or query parameters, answered 200 or as a denial, with the same headers.
   */
  authorize(request: FastifyRequest<AuthorizeRoute>, reply: FastifyReply): Promise<void> {
    return this.decisions.decide(
      request.headers.authorization,
      () => parseAuthorizeRequest(request),
      (result, { denyStatus }) => sendAuthorizeResult(reply, result, denyStatus, AUTHORIZE_PATH),
    );
  }
}
