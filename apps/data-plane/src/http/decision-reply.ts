import { problemForDenial, rateLimitHeaders, type CheckResult } from '@sluice/engine';
import { problemContentType } from '@sluice/nest-kit';
import type { FastifyReply } from 'fastify';

/**
 * `POST /v1/check`'s answer, with the rate-limit headers on every one: the result as a 200 body,
 * except a fail-closed check (503 `temporary-reduced-capacity`, whatever the mode) and, in gateway
 * mode, any denial (its problem+json: 429 `rate-limited`, 403 `tenant-suspended`).
 */
export function sendCheckResult(
  reply: FastifyReply,
  result: CheckResult,
  gateway: boolean,
  instance: string,
): void {
  reply.headers(rateLimitHeaders(result));
  if (!result.allowed && (gateway || result.reason === 'fail-closed')) {
    const problem = problemForDenial(result, instance);
    reply.code(problem.status).type(problemContentType).send(problem);
    return;
  }
  reply.send(result);
}

/**
 * `GET /v1/authorize`'s answer for a reverse proxy: 200 with an empty body when allowed, else the
 * denial's problem+json. A rate-limit denial (429) is sent with `denyStatus` instead when the
 * proxy asked for one it can pass on (NGINX `auth_request` passes only 2xx, 401 and 403); the
 * body still says 429.
 */
export function sendAuthorizeResult(
  reply: FastifyReply,
  result: CheckResult,
  denyStatus: number,
  instance: string,
): void {
  reply.headers(rateLimitHeaders(result));
  if (result.allowed) {
    reply.send();
    return;
  }
  const problem = problemForDenial(result, instance);
  reply
    .code(problem.status === 429 ? denyStatus : problem.status)
    .type(problemContentType)
    .send(problem);
}
