import { createParamDecorator, type ExecutionContext, SetMetadata } from '@nestjs/common';
import { GqlExecutionContext } from '@nestjs/graphql';
import type { Role } from '@sluice/db';
import type { AuditActor } from '../audit/audit.service';
import type { GraphqlContext } from '../graphql/graphql-context';
import type { AuthUser } from './auth-user';

export const IS_PUBLIC = Symbol('IS_PUBLIC');
export const ROLES = Symbol('ROLES');

/** Opens a resolver to callers without a session (the guard denies by default). */
export const Public = () => SetMetadata(IS_PUBLIC, true);

/** Only users holding one of `roles` (in any tenant; object checks stay with AccessService). */
export const Roles = (...roles: [Role, ...Role[]]) => SetMetadata(ROLES, roles);

function graphqlContext(context: ExecutionContext): GraphqlContext {
  return GqlExecutionContext.create(context).getContext<GraphqlContext>();
}

/** The signed-in user; only on guarded (non-public) resolvers, where one always exists. */
export const CurrentUser = createParamDecorator(
  (_: unknown, context: ExecutionContext): AuthUser => {
    const auth = graphqlContext(context).auth;
    if (!auth) throw new Error('@CurrentUser() on a resolver that is @Public()');
    return auth.user;
  },
);

/** The actor of audit entries: the signed-in user (if any), the request id and the client IP. */
export const RequestActor = createParamDecorator(
  (_: unknown, context: ExecutionContext): AuditActor => {
    const { auth, meta } = graphqlContext(context);
    return { type: 'user', id: auth?.user.id ?? null, requestId: meta.requestId, ip: meta.ip };
  },
);
