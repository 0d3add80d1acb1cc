import { type ArgumentsHost, Catch, type ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorAnswer, instanceOf, sendErrorAnswer } from './problems';

/**
 * Every error of a Nest route (probes, metrics, the OpenAPI document, unknown routes, and the
 * Fastify errors Nest hands over) answers as problem+json, as the API routes' errors do.
 */
@Catch()
export class ProblemFilter implements ExceptionFilter {
  private readonly logger = new Logger('ProblemFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const answer = errorAnswer(exception, instanceOf(http.getRequest<FastifyRequest>().url));
    if (answer.unexpected) this.logger.error(exception);
    if (reply.sent) return;
    sendErrorAnswer(reply, answer);
  }
}
