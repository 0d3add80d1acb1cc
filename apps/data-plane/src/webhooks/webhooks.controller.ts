import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { DecisionEngine, PROBLEM_BASE } from '@sluice/engine';
import { sendProblem } from '@sluice/nest-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ApiServer } from '../http/api-server';
import { errorAnswer, instanceOf, sendErrorAnswer } from '../http/problems';
import { bearerSecret } from '../http/request-headers';
import { WebhookIntake } from './webhook-intake.service';
import { parseWebhookBody, WEBHOOK_BODY_LIMIT, webhookAcceptedSchema } from './webhooks.schema';

export const WEBHOOKS_PATH = '/v1/webhooks';

const RESPONSES = { 202: z.toJSONSchema(webhookAcceptedSchema, { target: 'draft-7' }) };

/**
 * POST /v1/webhooks on the API instance (see `ApiServer`): a tenant's service enqueues an event
 * for one of its endpoints; the worker delivers it at the endpoint's constant rate. In a scope of
 * its own for its larger body limit, whose 413 must name that limit.
 */
@Injectable()
export class WebhooksController implements OnModuleInit {
  private readonly logger = new Logger('WebhooksController');

  constructor(
    private readonly api: ApiServer,
    private readonly engine: DecisionEngine,
    private readonly intake: WebhookIntake,
  ) {}

  onModuleInit(): void {
    void this.api.fastify.register(async (scope) => {
      scope.setErrorHandler((error, request, reply) => this.sendError(error, request, reply));
      scope.post(
        WEBHOOKS_PATH,
        { bodyLimit: WEBHOOK_BODY_LIMIT, schema: { response: RESPONSES } },
        (request, reply) => this.submit(request, reply),
      );
    });
  }

  /** 202 `{ eventId, departureAt }`, or 429 problem+json with `Retry-After` when the FIFO is full. */
  async submit(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const secret = bearerSecret(request.headers.authorization);
    const key = this.engine.authenticateCached(secret) ?? (await this.engine.authenticate(secret));
    // read after the key: an unauthenticated caller learns nothing about its input
    const body = parseWebhookBody(request.body);
    const answer = await this.intake.submit(key, body);
    if (answer.status === 'queue-full') {
      const seconds = Math.max(1, Math.ceil(answer.retryAfterMs / 1000));
      reply.header('retry-after', String(seconds));
      sendProblem<{ 'retry-after-ms': number }>(reply, {
        type: `${PROBLEM_BASE}webhook-queue-full`,
        title: 'Too Many Requests',
        status: 429,
        detail: `The queue of webhook endpoint ${JSON.stringify(body.endpoint)} is full. Retry after ${seconds} second${seconds === 1 ? '' : 's'}.`,
        instance: WEBHOOKS_PATH,
        'retry-after-ms': answer.retryAfterMs,
      });
      return;
    }
    if (answer.replayed) reply.header('idempotent-replayed', 'true');
    reply.code(202).send({ eventId: answer.eventId, departureAt: answer.departureAt });
  }

  private sendError(error: unknown, request: FastifyRequest, reply: FastifyReply): void {
    const instance = instanceOf(request.url);
    if ((error as { code?: unknown } | null)?.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      sendProblem(reply, {
        status: 413,
        detail: `The request body is larger than ${WEBHOOK_BODY_LIMIT} bytes.`,
        instance,
      });
      return;
    }
    const answer = errorAnswer(error, instance);
    if (answer.unexpected) this.logger.error(error);
    if (!reply.sent) sendErrorAnswer(reply, answer);
  }
}
