import {
  Injectable,
  Logger,
  NotFoundException,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { InputError } from '@sluice/engine';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply } from 'fastify';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { MAX_BODY_BYTES } from './body';
import { errorAnswer, instanceOf, sendErrorAnswer } from './problems';

/** Every path the API instance answers starts with this; the rest is Nest's. */
export const API_PREFIX = '/v1/';

/** A path parameter may be a 256-byte identifier, percent-encoded (3 characters a byte). */
const MAX_PARAM_LENGTH = 1024;

/**
 * The API routes (`/v1/…`) run on a Fastify instance of their own, sharing the Nest app's port:
 * the Nest adapter's instance adds, to every route, four `onRequest` hooks and an `onResponse`
 * hook, the middleware chain (request logging through `@fastify/middie`) and an older Fastify
 * whose body parsing allocates per request; together they halved the throughput of /v1/check
 * (measured, see docs/data-plane.md). Nest keeps everything else: the process, its modules and
 * lifecycle, probes, metrics, the OpenAPI document. Route handlers are closures over singleton
 * providers: no per-request DI.
 *
 * This instance takes JSON bodies only (415 otherwise) of at most MAX_BODY_BYTES (413), and
 * answers every error, its routing errors included (bad percent-encoding, unknown `/v1/` path),
 * as problem+json.
 */
@Injectable()
export class ApiServer implements OnApplicationBootstrap, OnApplicationShutdown {
  readonly fastify: FastifyInstance;
  private readonly logger = new Logger('ApiServer');

  constructor(private readonly adapterHost: HttpAdapterHost) {
    this.fastify = Fastify({
      logger: false,
      bodyLimit: MAX_BODY_BYTES,
      // a HEAD of /v1/authorize would decide (and consume) like a GET
      exposeHeadRoutes: false,
      routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
      frameworkErrors: (error, request, reply) =>
        this.sendError(routingError(error), request.url, reply),
    });
    this.fastify.removeContentTypeParser('text/plain');
    this.fastify.setErrorHandler((error, request, reply) =>
      this.sendError(error, request.url, reply),
    );
    this.fastify.setNotFoundHandler((request, reply) =>
      this.sendError(
        new NotFoundException(`No route ${request.method} ${instanceOf(request.url)}.`),
        request.url,
        reply,
      ),
    );
  }

  /** After every module registered its routes: build them, then take `/v1/` requests. */
  async onApplicationBootstrap(): Promise<void> {
    await this.fastify.ready();
    const server: Server = this.adapterHost.httpAdapter.getHttpServer();
    // the Nest adapter's Fastify registered its handler when it created the server
    const nest = server.listeners('request') as ((
      req: IncomingMessage,
      res: ServerResponse,
    ) => void)[];
    server.removeAllListeners('request');
    const api = this.fastify.routing;
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      if (req.url?.startsWith(API_PREFIX)) api(req, res);
      else for (const handler of nest) handler(req, res);
    });
  }

  async onApplicationShutdown(): Promise<void> {
    // the shared server was closed by Nest; this runs the instance's own onClose hooks
    await this.fastify.close();
  }

  private sendError(error: unknown, url: string, reply: FastifyReply): void {
    const answer = errorAnswer(error, instanceOf(url));
    if (answer.unexpected) this.logger.error(error);
    if (!reply.sent) sendErrorAnswer(reply, answer);
  }
}

/** A path that cannot be decoded, or a parameter too long to be an identifier, is bad input. */
function routingError(error: FastifyError): Error {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return new InputError([{ path: 'identifier', message: 'must be at most 256 bytes (UTF-8)' }]);
  }
  return new InputError([{ path: 'path', message: 'is not valid percent-encoded UTF-8' }]);
}
