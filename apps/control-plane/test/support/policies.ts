import { DecisionEngine, engineRedisOptions, type CheckResult } from '@sluice/engine';
import { newId } from '@sluice/db';
import {
  generateApiKeySecret,
  hashApiKey,
  readApiKey,
  readTenant,
  type CompiledTenant,
} from '@sluice/policy';
import { expect } from 'vitest';
import { OutboxRelay } from '../../src/publish/outbox-relay.service';
import {
  createUser,
  loginWithBearer,
  type GraphqlResponse,
  type TestApp,
  type TestUser,
} from './test-app';

/** A GraphQL call as a given bearer, failing the test on errors. */
export async function gql<T = Record<string, unknown>>(
  app: TestApp,
  token: string,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<T> {
  const response = await app.graphql<T>(query, variables, { bearer: token });
  expect(response.body.errors, JSON.stringify(response.body.errors)).toBeUndefined();
  return response.body.data as T;
}

/** The first error of a GraphQL call that must fail. */
export async function gqlError(
  app: TestApp,
  token: string | undefined,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<{ code: string; field?: string; message: string; issues?: unknown }> {
  const response: GraphqlResponse<unknown> = await app.graphql(
    query,
    variables,
    token ? { bearer: token } : {},
  );
  const error = response.body.errors?.[0];
  expect(error, `expected an error, got ${JSON.stringify(response.body.data)}`).toBeDefined();
  return {
    code: String(error?.extensions?.['code']),
    message: error?.message ?? '',
    ...(error?.extensions?.['field'] !== undefined && { field: String(error.extensions['field']) }),
    issues: error?.extensions?.['issues'],
  };
}

export interface Operator {
  user: TestUser;
  token: string;
}

export async function operator(app: TestApp): Promise<Operator> {
  const user = await createUser(app.prisma, { memberships: [{ role: 'operator' }] });
  return { user, token: await loginWithBearer(app, user) };
}

export const CREATE_PLAN = /* GraphQL */ `
  mutation ($input: CreatePlanInput!) {
    createPlan(input: $input) {
      id
      slug
    }
  }
`;

export const CREATE_PLAN_POLICY = /* GraphQL */ `
  mutation ($planId: ID!, $input: PolicySettingsInput!) {
    createPlanPolicy(planId: $planId, input: $input) {
      policy {
        id
        name
      }
      tenantsRepublished
      tenantsTrimmed
    }
  }
`;

export const CREATE_TENANT = /* GraphQL */ `
  mutation ($input: CreateTenantInput!) {
    createTenant(input: $input) {
      id
      slug
      status
    }
  }
`;

let sequence = 0;
/** A unique slug for this test run. */
export const slug = (base: string) =>
  `${base}-${process.pid}-${(sequence += 1)}-${Math.random().toString(36).slice(2, 6)}`;

/** A plan with an `api` template (a burst bucket whose capacity tenants may set 1..50). */
export async function planWithApi(
  app: TestApp,
  token: string,
  capacity = 5,
): Promise<{ planId: string; policyId: string }> {
  const { createPlan } = await gql<{ createPlan: { id: string } }>(app, token, CREATE_PLAN, {
    input: { slug: slug('plan'), name: 'Plan' },
  });
  const { createPlanPolicy } = await gql<{ createPlanPolicy: { policy: { id: string } } }>(
    app,
    token,
    CREATE_PLAN_POLICY,
    {
      planId: createPlan.id,
      input: {
        name: 'api',
        redisTimeoutMs: 1000,
        rules: [
          {
            name: 'burst',
            algorithm: 'TOKEN_BUCKET',
            capacity,
            refillPerSecond: 0.001,
            tenantBounds: [{ param: 'capacity', min: 1, max: 50 }],
          },
          { name: 'daily', algorithm: 'FIXED_WINDOW', limit: 1000, windowMs: 86_400_000 },
        ],
      },
    },
  );
  return { planId: createPlan.id, policyId: createPlanPolicy.policy.id };
}

export async function tenantOn(app: TestApp, token: string, planId: string): Promise<string> {
  const { createTenant } = await gql<{ createTenant: { id: string } }>(app, token, CREATE_TENANT, {
    input: { slug: slug('tenant'), name: 'Tenant', planId },
  });
  return createTenant.id;
}

/**
 * Polls until `condition` holds (at most `timeoutMs`). The default is generous: what tests wait
 * for (a publish, a data plane seeing it, a queued event) takes well under a second, but a busy
 * CI machine may stall for seconds, and a deadline only costs time when the test fails anyway.
 */
export async function eventually<T>(
  what: string,
  probe: () => Promise<T>,
  condition: (value: T) => boolean,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (condition(value)) return value;
    if (Date.now() > deadline) {
      throw new Error(`${what}: still ${JSON.stringify(value)} after ${timeoutMs} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The tenant's compiled policies once Redis holds `version` (or any, when omitted). */
export function published(
  app: TestApp,
  tenantId: string,
  version?: number,
): Promise<CompiledTenant | undefined> {
  return eventually(
    `tenant ${tenantId} published${version === undefined ? '' : ` at version ${version}`}`,
    () => readTenant(app.redis.redis, app.redis.prefix, tenantId),
    (tenant) => tenant !== undefined && (version === undefined || tenant.version >= version),
  );
}

/** A data plane's decision engine over the app's Redis prefix (what `/v1/check` runs). */
export async function dataPlane(app: TestApp): Promise<{
  check(secret: string, policy: string, identifier: string, cost?: number): Promise<CheckResult>;
  stop(): Promise<void>;
}> {
  const redis = app.redis.connect(engineRedisOptions);
  if (redis.status !== 'ready') await new Promise((resolve) => redis.once('ready', resolve));
  const subscriber = app.redis.connect({});
  const engine = new DecisionEngine({
    redis,
    subscriber,
    prefix: app.redis.prefix,
    recorder: { record: () => undefined },
  });
  await engine.start();
  return {
    async check(secret, policy, identifier, cost) {
      const key = await engine.authenticate(secret);
      return engine.check({ key, policy, identifier, ...(cost !== undefined && { cost }) });
    },
    async stop() {
      await engine.stop();
      redis.disconnect();
      subscriber.disconnect();
    },
  };
}

/** An API key row of the tenant (not yet published: the next publish of the tenant writes it). */
export async function apiKeyRow(
  app: TestApp,
  tenantId: string,
): Promise<{ id: string; secret: string }> {
  const secret = generateApiKeySecret();
  const row = await app.prisma.apiKey.create({
    data: {
      id: newId('apiKey'),
      tenantId,
      name: 'test key',
      prefix: secret.slice(0, 12),
      hash: hashApiKey(secret),
      scopes: ['check'],
    },
  });
  return { id: row.id, secret };
}

/** A service key of the tenant, published the way every key is (an outbox row, then the relay). */
export async function serviceKey(app: TestApp, tenantId: string): Promise<string> {
  const { secret } = await apiKeyRow(app, tenantId);
  await app.prisma.outboxEvent.create({ data: { tenantId, kind: 'tenant' } });
  app.app.get(OutboxRelay).nudge();
  await eventually(
    'key published',
    () => readApiKey(app.redis.redis, app.redis.prefix, secret),
    (record) => record !== undefined,
  );
  return secret;
}
