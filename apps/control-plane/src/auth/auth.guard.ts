import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { GqlExecutionContext, type GqlContextType } from '@nestjs/graphql';
import type { Role } from '@sluice/db';
import { probeRoutes } from '@sluice/nest-kit';
import type { FastifyRequest } from 'fastify';
import type { GraphQLResolveInfo } from 'graphql';
import { AppError } from '../graphql/app-error';
import type { GraphqlContext } from '../graphql/graphql-context';
import { IS_PUBLIC, ROLES } from './decorators';

const PUBLIC_HTTP_ROUTES = new Set(Object.values(probeRoutes).map((route) => `/${route}`));

/**
 * The global guard: every resolver needs a live session unless it is `@Public()`, `@Roles()`
 * narrows it further, and a mutation authenticated by cookie needs the CSRF header. Plain HTTP
 * routes other than the probes are refused, so a new controller is closed until it says otherwise.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    if (context.getType<GqlContextType>() !== 'graphql') {
      const request = context.switchToHttp().getRequest<FastifyRequest>();
      return PUBLIC_HTTP_ROUTES.has(request.routeOptions.url ?? '');
    }
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return true;

    const gql = GqlExecutionContext.create(context);
    const { auth, credentialRefused } = gql.getContext<GraphqlContext>();
    if (!auth) {
      throw AppError.unauthenticated(
        credentialRefused ? 'Your session has expired or was ended. Log in again.' : undefined,
      );
    }
    const roles = this.reflector.getAllAndOverride<Role[] | undefined>(ROLES, targets);
    if (roles && !auth.user.memberships.some((m) => roles.includes(m.role))) {
      throw AppError.forbidden();
    }
    const { operation } = gql.getInfo<GraphQLResolveInfo>();
    if (operation.operation === 'mutation' && auth.method === 'cookie' && !auth.csrfValid) {
      throw AppError.forbidden(
        'Missing or invalid CSRF token (send the sluice_csrf cookie as x-csrf-token).',
      );
    }
    return true;
  }
}
