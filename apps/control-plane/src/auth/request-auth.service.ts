import { fastifyCookie } from '@fastify/cookie';
import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import type { Authentication } from './auth-user';
import { CSRF_HEADER, SESSION_COOKIE } from './session-cookies';
import { SessionService } from './session.service';
import { matchesHash } from './tokens';

/** Tokens are 43 base64url characters; anything far off is refused before a database lookup. */
const TOKEN = /^[A-Za-z0-9_-]{16,128}$/;
const BEARER = /^Bearer +(\S+)$/i;

export interface RequestAuth {
  auth: Authentication | undefined;
  /** A credential came but opened no session (malformed, unknown, expired, revoked). */
  credentialRefused: boolean;
}

const ANONYMOUS: RequestAuth = { auth: undefined, credentialRefused: false };
const REFUSED: RequestAuth = { auth: undefined, credentialRefused: true };

/** Finds the session a request or WebSocket connection carries. */
@Injectable()
export class RequestAuthService {
  constructor(private readonly sessions: SessionService) {}

  /** `Authorization: Bearer <token>` (no CSRF needed), else the session cookie (CSRF checked). */
  async fromHttp(request: FastifyRequest): Promise<RequestAuth> {
    const authorization = request.headers.authorization;
    if (authorization !== undefined) {
      return this.open(BEARER.exec(authorization)?.[1], 'bearer', true);
    }
    const token = request.cookies[SESSION_COOKIE];
    if (token === undefined) return ANONYMOUS;
    return this.open(token, 'cookie', (csrfHash) => {
      const header = request.headers[CSRF_HEADER];
      return typeof header === 'string' && TOKEN.test(header) && matchesHash(header, csrfHash);
    });
  }

  /**
   * A WebSocket connection: `authorization: 'Bearer <token>'` in the connection parameters, or
   * the session cookie of the upgrade request together with `csrfToken` in the parameters (a
   * cross-site page can open a socket with the cookie but cannot read the CSRF cookie).
   */
  async fromSocket(
    connectionParams: Readonly<Record<string, unknown>> | undefined,
    request: IncomingMessage,
  ): Promise<RequestAuth> {
    const authorization = connectionParams?.['authorization'];
    if (authorization !== undefined) {
      const token = typeof authorization === 'string' ? BEARER.exec(authorization)?.[1] : undefined;
      return this.open(token, 'websocket', true);
    }
    const cookieHeader = request.headers.cookie;
    const token = cookieHeader ? fastifyCookie.parse(cookieHeader)[SESSION_COOKIE] : undefined;
    if (token === undefined) return ANONYMOUS;
    const csrfToken = connectionParams?.['csrfToken'];
    const csrfValid = (csrfHash: string) =>
      typeof csrfToken === 'string' && TOKEN.test(csrfToken) && matchesHash(csrfToken, csrfHash);
    const result = await this.open(token, 'websocket', csrfValid);
    return result.auth && !result.auth.csrfValid ? REFUSED : result;
  }

  private async open(
    token: string | undefined,
    method: Authentication['method'],
    csrf: true | ((csrfHash: string) => boolean),
  ): Promise<RequestAuth> {
    if (token === undefined || !TOKEN.test(token)) return REFUSED;
    const live = await this.sessions.resolve(token);
    if (!live) return REFUSED;
    const csrfValid = csrf === true || csrf(live.session.csrfHash);
    return {
      auth: { user: live.user, sessionId: live.session.id, method, csrfValid },
      credentialRefused: false,
    };
  }
}
