import { newId, type PrismaClient, type Role } from '@sluice/db';
import { compileTenant, publishTenant } from '@sluice/policy';
import { type DecisionEvent, UsageRecorder } from '@sluice/usage';
import { createUser, loginWithBearer, type TestApp } from './test-app';

/** A tenant row (on a plan of its own), as the tenant API would have created it. */
export async function createTenant(prisma: PrismaClient): Promise<string> {
  const planId = newId('plan');
  const tenantId = newId('tenant');
  await prisma.plan.create({ data: { id: planId, slug: planId.replace('_', '-'), name: planId } });
  await prisma.tenant.create({
    data: { id: tenantId, slug: tenantId.replace('_', '-'), name: tenantId, planId },
  });
  return tenantId;
}

/** A bearer token of a new user holding `role` in `tenantId` (operator: no tenant). */
export async function tokenFor(app: TestApp, role: Role, tenantId?: string): Promise<string> {
  const user = await createUser(app.prisma, {
    memberships: [role === 'operator' ? { role } : { role, tenantId: tenantId ?? '' }],
  });
  return loginWithBearer(app, user);
}

/** The data plane's recorder, writing into the test app's Redis prefix; every decision logged. */
export function usageRecorder(app: TestApp): UsageRecorder {
  return new UsageRecorder({
    redis: app.redis.redis,
    prefix: app.redis.prefix,
    allowSampleRate: 1,
  });
}

/** Records the decisions and flushes them, as a data plane does once a second. */
export async function recordUsage(app: TestApp, events: readonly DecisionEvent[]): Promise<void> {
  const usage = usageRecorder(app);
  for (const event of events) usage.record(event);
  await usage.flush();
}

/** An allowed decision; tests override what they need. */
export function decision(
  tenantId: string,
  at: number,
  overrides: Partial<DecisionEvent> = {},
): DecisionEvent {
  return {
    tenantId,
    policy: 'api',
    keyId: 'key_1',
    at,
    identifier: 'user-1',
    allowed: true,
    reason: 'allowed',
    cost: 1,
    shadowDenied: false,
    candidateDenied: false,
    ...overrides,
  };
}

export function denial(
  tenantId: string,
  at: number,
  overrides: Partial<DecisionEvent> = {},
): DecisionEvent {
  return decision(tenantId, at, {
    allowed: false,
    reason: 'rule',
    deniedBy: 'burst',
    ...overrides,
  });
}

/** Publishes the tenant's compiled policies (one fixed window each) as the control plane does. */
export async function publishPolicies(
  app: TestApp,
  tenantId: string,
  names: readonly string[],
): Promise<number> {
  const compiled = compileTenant({
    tenantId,
    slug: tenantId.replace('_', '-'),
    status: 'active',
    policies: names.map((name) => ({
      id: `pol_${name}`,
      name,
      rules: [{ name: 'minute', algorithm: 'fixed_window', limit: 100, windowMs: 60_000 }],
    })),
  });
  const published = await publishTenant(app.redis.redis, app.redis.prefix, compiled);
  return published.version;
}

/** A GraphQL error's code and field, for `toEqual`. */
export function errorOf(body: { errors?: readonly { extensions?: Record<string, unknown> }[] }) {
  const [error] = body.errors ?? [];
  return { code: error?.extensions?.['code'], field: error?.extensions?.['field'] };
}
