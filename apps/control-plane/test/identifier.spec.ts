import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  dataPlane,
  eventually,
  gql,
  gqlError,
  operator,
  planWithApi,
  published,
  serviceKey,
  tenantOn,
} from './support/policies';
import { startTestApp, type TestApp } from './support/test-app';
import { tokenFor } from './support/usage';

// An identifier in the console: its live state in every rule (what a data plane decides on),
// the overrides that match it, and a reset of its counters — operators always, tenant admins only
// where the tenant's plan allows it.

const STATE = /* GraphQL */ `
  query ($tenantId: ID!, $policy: String!, $identifier: String!) {
    identifierState(tenantId: $tenantId, policy: $policy, identifier: $identifier) {
      identifier
      canReset
      now {
        overrideId
        rules {
          name
          limit
          remaining
        }
      }
      next {
        allowed
        reason
        deniedBy
        retryAfterMs
      }
      overrides {
        id
        match
        identifier
        expired
      }
    }
  }
`;

const RESET = /* GraphQL */ `
  mutation ($input: ResetIdentifierInput!) {
    resetIdentifier(input: $input) {
      deleted
      state {
        now {
          rules {
            name
            remaining
          }
        }
        next {
          allowed
        }
      }
    }
  }
`;

const CREATE_OVERRIDE = /* GraphQL */ `
  mutation ($input: CreateOverrideInput!) {
    createOverride(input: $input) {
      override {
        id
      }
      version
    }
  }
`;

const UPDATE_PLAN = /* GraphQL */ `
  mutation ($id: ID!, $i: UpdatePlanInput!) {
    updatePlan(id: $id, input: $i) {
      tenantCounterResets
    }
  }
`;

interface State {
  identifier: string;
  canReset: boolean;
  now: {
    overrideId: string | null;
    rules: { name: string; limit: number; remaining: number }[];
  };
  next: { allowed: boolean; reason: string; deniedBy: string | null; retryAfterMs: number };
  overrides: { id: string; match: string; identifier: string; expired: boolean }[];
}

let app: TestApp;
let op: string;
let admin: string;
let viewer: string;
let planId: string;
let tenantId: string;
let secret: string;
let engine: Awaited<ReturnType<typeof dataPlane>>;

beforeAll(async () => {
  app = await startTestApp();
  op = (await operator(app)).token;
  planId = (await planWithApi(app, op, 5)).planId;
  tenantId = await tenantOn(app, op, planId);
  admin = await tokenFor(app, 'tenant_admin', tenantId);
  viewer = await tokenFor(app, 'tenant_viewer', tenantId);
  secret = await serviceKey(app, tenantId);
  engine = await dataPlane(app);
});
afterAll(async () => {
  await engine?.stop();
  await app?.close();
});

const state = async (token: string, identifier: string, policy = 'api') =>
  (await gql<{ identifierState: State }>(app, token, STATE, { tenantId, policy, identifier }))
    .identifierState;

const burst = (s: State) => s.now.rules.find((rule) => rule.name === 'burst');

const reset = (token: string, identifier: string) =>
  gql<{ resetIdentifier: { deleted: number; state: Pick<State, 'now' | 'next'> } }>(
    app,
    token,
    RESET,
    {
      input: { tenantId, policy: 'api', identifier },
    },
  );

describe('identifierState', () => {
  it('reads each rule as the data plane decides on it, and spends nothing', async () => {
    for (let i = 0; i < 5; i++) await engine.check(secret, 'api', 'carol');
    expect((await engine.check(secret, 'api', 'carol')).allowed).toBe(false);

    const carol = await state(viewer, 'carol');
    expect(carol.identifier).toBe('carol');
    // the next check (cost 1) would be refused by the bucket
    expect(carol.next).toMatchObject({ allowed: false, reason: 'rule', deniedBy: 'burst' });
    expect(carol.next.retryAfterMs).toBeGreaterThan(0);
    expect(burst(carol)).toEqual({ name: 'burst', limit: 5, remaining: 0 });
    // the daily window counted the five allowed checks (a denied check spends nothing)
    expect(carol.now.rules.find((rule) => rule.name === 'daily')).toMatchObject({
      limit: 1000,
      remaining: 995,
    });

    // reading it again spends nothing
    for (let i = 0; i < 3; i++) await state(viewer, 'dave');
    expect(burst(await state(viewer, 'dave'))?.remaining).toBe(5);
    expect(await engine.check(secret, 'api', 'dave')).toMatchObject({
      allowed: true,
      remaining: 4,
    });
  });

  it('lists the overrides that match, in the order a check tries them, and names the one that applies', async () => {
    const create = async (identifier: string, capacity: number, expiresAt?: string) =>
      (
        await gql<{ createOverride: { override: { id: string }; version: number } }>(
          app,
          op,
          CREATE_OVERRIDE,
          {
            input: {
              tenantId,
              policy: 'api',
              identifier,
              rules: [{ name: 'burst', capacity }],
              ...(expiresAt && { expiresAt }),
            },
          },
        )
      ).createOverride;
    const vipPrefix = await create('vip_*', 20);
    const vipLongerPrefix = await create('vip_e*', 30);
    const expiredExact = await create('vip_erin', 40, new Date(Date.now() + 1500).toISOString());
    const other = await create('vip_frank', 50);
    await published(app, tenantId, other.version);
    await new Promise((resolve) => setTimeout(resolve, 1600));

    const erin = await state(admin, 'vip_erin');
    expect(erin.overrides.map((o) => o.id)).toEqual([
      expiredExact.override.id,
      vipLongerPrefix.override.id,
      vipPrefix.override.id,
    ]);
    expect(erin.overrides.map((o) => [o.match, o.identifier, o.expired])).toEqual([
      ['EXACT', 'vip_erin', true],
      ['PREFIX', 'vip_e*', false],
      ['PREFIX', 'vip_*', false],
    ]);
    // the expired exact override is skipped: the longest live prefix applies
    expect(erin.now.overrideId).toBe(vipLongerPrefix.override.id);
    expect(burst(erin)).toMatchObject({ limit: 30, remaining: 30 });

    const nobody = await state(admin, 'nobody');
    expect(nobody.overrides).toEqual([]);
    expect(nobody.now.overrideId).toBeNull();
  });

  it('refuses bad input by field, an unknown policy, and a tenant the caller is not in', async () => {
    expect(
      await gqlError(app, viewer, STATE, { tenantId, policy: 'api', identifier: '' }),
    ).toMatchObject({ code: 'BAD_USER_INPUT', field: 'identifier' });
    expect(
      await gqlError(app, viewer, STATE, { tenantId, policy: 'api', identifier: 'x'.repeat(257) }),
    ).toMatchObject({ code: 'BAD_USER_INPUT', field: 'identifier' });
    expect(
      await gqlError(app, viewer, STATE, { tenantId, policy: 'nope', identifier: 'carol' }),
    ).toMatchObject({ code: 'NOT_FOUND' });
    const otherTenant = await tenantOn(app, op, planId);
    const outsider = await tokenFor(app, 'tenant_admin', otherTenant);
    expect(
      await gqlError(app, outsider, STATE, { tenantId, policy: 'api', identifier: 'carol' }),
    ).toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('resetIdentifier', () => {
  it("deletes every rule's counters: the identifier starts afresh, and the reset is audited", async () => {
    for (let i = 0; i < 6; i++) await engine.check(secret, 'api', 'greg');
    expect((await state(op, 'greg')).canReset).toBe(true);

    const { resetIdentifier } = await reset(op, 'greg');
    expect(resetIdentifier.deleted).toBe(2); // the bucket's key and the daily window's
    expect(resetIdentifier.state.next).toEqual({ allowed: true });
    expect(resetIdentifier.state.now.rules.map((rule) => [rule.name, rule.remaining])).toEqual([
      ['burst', 5],
      ['daily', 1000],
    ]);
    // the data plane decides on the fresh state
    expect(await engine.check(secret, 'api', 'greg')).toMatchObject({
      allowed: true,
      remaining: 4,
    });

    const audit = await app.prisma.auditLog.findFirst({
      where: { tenantId, action: 'identifier.reset' },
      orderBy: { at: 'desc' },
    });
    expect(audit?.after).toEqual({ policy: 'api', identifier: 'greg', deleted: 2 });

    // nothing to reset: 0 keys, still audited
    expect((await reset(op, 'never-seen')).resetIdentifier.deleted).toBe(0);
    expect(
      await app.prisma.auditLog.count({
        where: {
          tenantId,
          action: 'identifier.reset',
          after: { equals: { policy: 'api', identifier: 'never-seen', deleted: 0 } },
        },
      }),
    ).toBe(1);
  });

  it('lets tenant admins reset only where their plan allows it (off by default); viewers never', async () => {
    for (let i = 0; i < 6; i++) await engine.check(secret, 'api', 'heidi');
    expect((await state(admin, 'heidi')).canReset).toBe(false);
    expect(
      await gqlError(app, admin, RESET, {
        input: { tenantId, policy: 'api', identifier: 'heidi' },
      }),
    ).toMatchObject({ code: 'FORBIDDEN', message: expect.stringContaining('plan') });
    // refused: nothing was reset, nothing audited
    expect(burst(await state(admin, 'heidi'))?.remaining).toBe(0);

    const { updatePlan } = await gql<{ updatePlan: { tenantCounterResets: boolean } }>(
      app,
      op,
      UPDATE_PLAN,
      { id: planId, i: { tenantCounterResets: true } },
    );
    expect(updatePlan.tenantCounterResets).toBe(true);
    expect((await state(admin, 'heidi')).canReset).toBe(true);
    expect((await reset(admin, 'heidi')).resetIdentifier.deleted).toBe(2);
    expect(burst(await state(admin, 'heidi'))?.remaining).toBe(5);

    // a viewer reads, never resets, whatever the plan says
    expect((await state(viewer, 'heidi')).canReset).toBe(false);
    expect(
      await gqlError(app, viewer, RESET, {
        input: { tenantId, policy: 'api', identifier: 'heidi' },
      }),
    ).toMatchObject({ code: 'FORBIDDEN' });

    await gql(app, op, UPDATE_PLAN, { id: planId, i: { tenantCounterResets: false } });
    await eventually(
      'the plan closed resets again',
      () => state(admin, 'heidi'),
      (s) => !s.canReset,
    );
    const audits = await app.prisma.auditLog.count({
      where: {
        tenantId,
        action: 'identifier.reset',
        after: { path: ['identifier'], equals: 'heidi' },
      },
    });
    expect(audits).toBe(1);
  });
});
