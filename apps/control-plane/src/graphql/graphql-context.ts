import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import type { Authentication } from '../auth/auth-user';

/** Who asked, for audit entries and sessions. */
export interface RequestMeta {
  /** The client's `x-request-id` when well-formed, else a new UUID. */
  requestId: string;
  ip: string | null;
  userAgent: string | null;
}

/** The context of every GraphQL operation, over HTTP or a WebSocket. */
export interface GraphqlContext {
  /** The HTTP request, or the WebSocket's upgrade request (Nest expects `req`). */
  req: FastifyRequest | IncomingMessage;
  /** HTTP only: login and logout set and clear cookies on it. */
  reply: FastifyReply | undefined;
  meta: RequestMeta;
  /** The valid session the request carries, if any. */
  auth: Authentication | undefined;
  /** A credential came but was refused (unknown, expired, revoked): the guard says so. */
  credentialRefused: boolean;
}
