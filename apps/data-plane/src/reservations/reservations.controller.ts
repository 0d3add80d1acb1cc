import { Injectable, type OnModuleInit } from '@nestjs/common';
import {
  DecisionEngine,
  LeaseNotFoundError,
  ReservationNotFoundError,
  type ReleaseResult,
  type SettleResult,
} from '@sluice/engine';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ApiServer } from '../http/api-server';
import { bearerSecret } from '../http/request-headers';
import { DataPlaneMetrics } from '../metrics/data-plane.metrics';
import { releaseResultSchema, settleResultSchema } from '../openapi/schemas';
import { parseBody, releaseRequestSchema, settleRequestSchema } from './reservations.schema';

export const SETTLE_PATH = '/v1/settle';
export const RELEASE_PATH = '/v1/release';

/** The 200 answers' serializers (fast-json-stringify), from the schemas the engine's types match. */
const responses = (schema: z.ZodType) => ({
  schema: { response: { 200: z.toJSONSchema(schema, { target: 'draft-7' }) } },
});

/**
 * POST /v1/settle and POST /v1/release on the API instance (see `ApiServer`): what a check with
 * a reservation or a lease is followed by. Both are idempotent, so a client may repeat them.
 */
@Injectable()
export class ReservationsController implements OnModuleInit {
  constructor(
    private readonly api: ApiServer,
    private readonly engine: DecisionEngine,
    private readonly metrics: DataPlaneMetrics,
  ) {}

  onModuleInit(): void {
    this.api.fastify.post(SETTLE_PATH, responses(settleResultSchema), (request) =>
      this.settle(request),
    );
    this.api.fastify.post(RELEASE_PATH, responses(releaseResultSchema), (request) =>
      this.release(request),
    );
  }

  /** Settles a reservation at its actual cost; a repeat answers `alreadySettled: true`. */
  async settle(request: FastifyRequest): Promise<SettleResult> {
    const key = await this.engine.authenticate(bearerSecret(request.headers.authorization));
    // read after the key: an unauthenticated caller learns nothing about its input
    const body = parseBody(settleRequestSchema, request.body);
    try {
      const result = await this.engine.settle({ key, ...body });
      this.metrics.settled(result);
      return result;
    } catch (error) {
      if (error instanceof ReservationNotFoundError) this.metrics.settled('not-found');
      throw error;
    }
  }

  /** Frees a lease; `released: false` when it was not held any more. */
  async release(request: FastifyRequest): Promise<ReleaseResult> {
    const key = await this.engine.authenticate(bearerSecret(request.headers.authorization));
    const body = parseBody(releaseRequestSchema, request.body);
    try {
      const result = await this.engine.release({ key, ...body });
      this.metrics.released(result);
      return result;
    } catch (error) {
      if (error instanceof LeaseNotFoundError) this.metrics.released('not-found');
      throw error;
    }
  }
}
