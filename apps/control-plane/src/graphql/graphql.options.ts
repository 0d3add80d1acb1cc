import type { ApolloDriverConfig } from '@nestjs/apollo';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GraphQLSchema } from 'graphql';
import type { Context as SocketContext } from 'graphql-ws';
import { randomUUID } from 'node:crypto';
import { IncomingMessage } from 'node:http';
import type { RequestAuthService } from '../auth/request-auth.service';
import type { Env } from '../env';
import { DateTimeScalar } from './date-time.scalar';
import { formatError } from './format-error';
import type { GraphqlContext, RequestMeta } from './graphql-context';
import {
  depthLimitRule,
  MAX_QUERY_TOKENS,
  queryComplexityPlugin,
  socketExecutionArgs,
} from './query-limits';

/** Client-chosen request ids are kept (for tracing) only when short and plain. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

function requestMeta(headers: IncomingMessage['headers'], ip: string | undefined): RequestMeta {
  const requestId = headers['x-request-id'];
  return {
    requestId:
      typeof requestId === 'string' && REQUEST_ID.test(requestId) ? requestId : randomUUID(),
    ip: ip ?? null,
    userAgent: headers['user-agent'] ?? null,
  };
}

/** graphql-ws on `ws` puts the upgrade request in `extra`. */
function upgradeRequest(context: SocketContext): IncomingMessage {
  const { extra } = context;
  if (typeof extra === 'object' && extra !== null && 'request' in extra) {
    if (extra.request instanceof IncomingMessage) return extra.request;
  }
  throw new Error('graphql-ws context without its upgrade request');
}

/**
 * Apollo on Fastify, code-first with the schema built in memory (`schema.gql` at the project root
 * is a snapshot a test keeps in step), subscriptions over graphql-ws. The same limits and error
 * masking apply to both transports.
 */
export function graphqlOptions(env: Env, requestAuth: RequestAuthService): ApolloDriverConfig {
  const introspection = env.CONTROL_PLANE_INTROSPECTION ?? env.NODE_ENV !== 'production';
  let schema: GraphQLSchema | undefined;

  async function httpContext(
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<GraphqlContext> {
    const { auth, credentialRefused } = await requestAuth.fromHttp(request);
    return {
      req: request,
      reply,
      meta: requestMeta(request.headers, request.ip),
      auth,
      credentialRefused,
    };
  }

  async function socketContext(context: SocketContext): Promise<GraphqlContext> {
    const request = upgradeRequest(context);
    const { auth, credentialRefused } = await requestAuth.fromSocket(
      context.connectionParams,
      request,
    );
    return {
      req: request,
      reply: undefined,
      meta: requestMeta(request.headers, request.socket.remoteAddress),
      auth,
      credentialRefused,
    };
  }

  return {
    autoSchemaFile: true,
    sortSchema: true,
    buildSchemaOptions: { scalarsMap: [{ type: Date, scalar: DateTimeScalar }] },
    // kept for the WebSocket path, which validates operations itself
    transformSchema: (built) => (schema = built),
    playground: false,
    introspection,
    // no "Did you mean …?" hints about a schema clients may not introspect
    hideSchemaDetailsFromClientErrors: !introspection,
    includeStacktraceInErrorResponses: false,
    autoTransformHttpErrors: false,
    parseOptions: { maxTokens: MAX_QUERY_TOKENS },
    // checked before the rules below, which then only see documents otherwise valid
    maxRecursiveSelections: true,
    validationRules: [depthLimitRule],
    plugins: [queryComplexityPlugin()],
    formatError,
    // Apollo's Fastify integration passes (request, reply); graphql-ws passes its context
    context: (source: FastifyRequest | SocketContext, reply: FastifyReply) =>
      'extra' in source ? socketContext(source) : httpContext(source, reply),
    subscriptions: {
      'graphql-ws': {
        // false closes the socket with 4403 Forbidden
        onConnect: async (context) => {
          const { auth } = await requestAuth.fromSocket(
            context.connectionParams,
            upgradeRequest(context),
          );
          return auth !== undefined;
        },
        onSubscribe: (_context, _id, payload) => {
          if (!schema) throw new Error('GraphQL schema not built yet');
          return socketExecutionArgs(schema, payload, introspection);
        },
        onNext: (_context, _id, _payload, _args, result) =>
          result.errors
            ? {
                ...result,
                errors: result.errors.map((error) => formatError(error.toJSON(), error)),
              }
            : undefined,
      },
    },
  };
}
