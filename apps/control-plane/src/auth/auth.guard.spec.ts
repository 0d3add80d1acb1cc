import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import type { Role } from '@sluice/db';
import { describe, expect, it } from 'vitest';
import type { GraphqlContext } from '../graphql/graphql-context';
import type { Authentication } from './auth-user';
import { AuthGuard } from './auth.guard';
import { Public, Roles } from './decorators';

class Resolvers {
  @Public()
  open(): void {}

  guarded(): void {}

  @Roles('operator')
  operatorsOnly(): void {}
}

const guard = new AuthGuard(new Reflector());

function authAs(
  role: Role,
  method: Authentication['method'] = 'bearer',
  csrfValid = true,
): Authentication {
  return {
    user: {
      id: 'usr_1',
      email: 'u@example.com',
      name: '',
      createdAt: new Date(0),
      memberships: [{ role, tenantId: role === 'operator' ? null : 'tnt_1' }],
    },
    sessionId: 'ses_1',
    method,
    csrfValid,
  };
}

/** The execution context Nest builds for a root field of a GraphQL operation. */
function graphqlCall(
  handler: keyof Resolvers,
  context: Partial<GraphqlContext>,
  operation: 'query' | 'mutation' | 'subscription' = 'query',
): ExecutionContext {
  const full = { auth: undefined, credentialRefused: false, ...context };
  const host = new ExecutionContextHost(
    [{}, {}, full, { operation: { operation } }],
    Resolvers,
    Resolvers.prototype[handler],
  );
  host.setType('graphql');
  return host;
}

function httpCall(url: string): ExecutionContext {
  return new ExecutionContextHost(
    [{ routeOptions: { url } }, {}],
    Resolvers,
    Resolvers.prototype.guarded,
  );
}

describe('AuthGuard', () => {
  it('lets anyone reach a @Public() resolver', () => {
    expect(guard.canActivate(graphqlCall('open', {}, 'mutation'))).toBe(true);
  });

  it('denies every other resolver without a session, saying why', () => {
    expect(() => guard.canActivate(graphqlCall('guarded', {}))).toThrow(
      expect.objectContaining({ code: 'UNAUTHENTICATED', message: 'Log in to continue.' }),
    );
    expect(() => guard.canActivate(graphqlCall('guarded', { credentialRefused: true }))).toThrow(
      expect.objectContaining({
        code: 'UNAUTHENTICATED',
        message: expect.stringMatching(/expired/),
      }),
    );
  });

  it('admits any role to a resolver without @Roles(), and only the named roles to one with it', () => {
    for (const role of ['operator', 'tenant_admin', 'tenant_viewer'] as const) {
      expect(guard.canActivate(graphqlCall('guarded', { auth: authAs(role) }))).toBe(true);
    }
    expect(guard.canActivate(graphqlCall('operatorsOnly', { auth: authAs('operator') }))).toBe(
      true,
    );
    for (const role of ['tenant_admin', 'tenant_viewer'] as const) {
      expect(() => guard.canActivate(graphqlCall('operatorsOnly', { auth: authAs(role) }))).toThrow(
        expect.objectContaining({ code: 'FORBIDDEN' }),
      );
    }
  });

  it('requires a valid CSRF token for mutations by cookie only', () => {
    const cookieWithoutCsrf = authAs('operator', 'cookie', false);

    expect(guard.canActivate(graphqlCall('guarded', { auth: cookieWithoutCsrf }, 'query'))).toBe(
      true,
    );
    expect(() =>
      guard.canActivate(graphqlCall('guarded', { auth: cookieWithoutCsrf }, 'mutation')),
    ).toThrow(
      expect.objectContaining({ code: 'FORBIDDEN', message: expect.stringContaining('CSRF') }),
    );
    expect(
      guard.canActivate(graphqlCall('guarded', { auth: authAs('operator', 'cookie') }, 'mutation')),
    ).toBe(true);
    expect(
      guard.canActivate(
        graphqlCall('guarded', { auth: authAs('operator', 'bearer', false) }, 'mutation'),
      ),
    ).toBe(true);
  });

  it('opens only the probes among plain HTTP routes', () => {
    expect(guard.canActivate(httpCall('/healthz'))).toBe(true);
    expect(guard.canActivate(httpCall('/readyz'))).toBe(true);
    expect(guard.canActivate(httpCall('/admin'))).toBe(false);
  });
});
