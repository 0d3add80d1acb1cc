import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  dataPlane,
  eventually,
  gql,
  gqlError,
  operator,
  planWithApi,
  serviceKey,
  tenantOn,
} from './support/policies';
import { startTestApp, type TestApp } from './support/test-app';
import { tokenFor } from './support/usage';

// Try in shadow: proposed limits run as candidate rules beside the live ones (their would-be
// denials reported, nothing denied), then are applied or discarded in one step — a tenant's own
// policy by its admins, a plan's template by operators.

const PAYLOAD = /* GraphQL */ `
  policy {
    id
    rules {
      name
      candidate
      replaces
      limit
      capacity
      tenantBounds {
        param
        max
      }
    }
  }
  tenantsRepublished
  countersReset {
    rule
    candidate
  }
`;
const TRY = `mutation ($i: TryCandidateRulesInput!) { tryCandidateRules(input: $i) { ${PAYLOAD} } }`;
const APPLY = `mutation ($id: ID!) { applyCandidateRules(policyId: $id) { ${PAYLOAD} } }`;
const DISCARD = `mutation ($id: ID!) { discardCandidateRules(policyId: $id) { ${PAYLOAD} } }`;
const CREATE_POLICY = `mutation ($t: ID!, $i: PolicySettingsInput!) {
  createPolicy(tenantId: $t, input: $i) { policy { id } }
}`;

interface Payload {
  policy: {
    id: string;
    rules: {
      name: string;
      candidate: boolean;
      replaces: string | null;
      limit: number | null;
      capacity: number | null;
      tenantBounds: { param: string; max: number | null }[];
    }[];
  };
  tenantsRepublished: number;
  countersReset: { rule: string; candidate: boolean }[];
}

const hourly = (limit: number) => ({
  algorithm: 'FIXED_WINDOW',
  limit,
  windowMs: 3_600_000,
});

let app: TestApp;
let op: string;
let admin: string;
let viewer: string;
let outsider: string;
let planId: string;
let templateId: string;
let tenantId: string;
let secret: string;
let engine: Awaited<ReturnType<typeof dataPlane>>;

beforeAll(async () => {
  app = await startTestApp();
  op = (await operator(app)).token;
  ({ planId, policyId: templateId } = await planWithApi(app, op, 5));
  tenantId = await tenantOn(app, op, planId);
  admin = await tokenFor(app, 'tenant_admin', tenantId);
  viewer = await tokenFor(app, 'tenant_viewer', tenantId);
  outsider = await tokenFor(app, 'tenant_admin', await tenantOn(app, op, planId));
  secret = await serviceKey(app, tenantId);
  engine = await dataPlane(app);
});
afterAll(async () => {
  await engine?.stop();
  await app?.close();
});

/** A policy of the tenant's own: an hourly window of 5 and a daily one of 100. */
async function ownPolicy(name: string): Promise<string> {
  const { createPolicy } = await gql<{ createPolicy: { policy: { id: string } } }>(
    app,
    admin,
    CREATE_POLICY,
    {
      t: tenantId,
      i: {
        name,
        redisTimeoutMs: 1000,
        rules: [
          { name: 'hourly', ...hourly(5) },
          { name: 'daily', algorithm: 'FIXED_WINDOW', limit: 100, windowMs: 86_400_000 },
        ],
      },
    },
  );
  return createPolicy.policy.id;
}

describe("a tenant's own policy", () => {
  it('runs a proposal in shadow (would-be denials reported, nothing denied), then applies it keeping the counters', async () => {
    const id = await ownPolicy('reports');
    const tried = await gql<{ tryCandidateRules: Payload }>(app, admin, TRY, {
      i: {
        policyId: id,
        candidateRules: [
          { name: 'hourly-next', replaces: 'hourly', ...hourly(2) },
          { name: 'burst', algorithm: 'GCRA', limit: 100, periodMs: 1000 },
        ],
      },
    });
    expect(tried.tryCandidateRules.tenantsRepublished).toBe(1);
    expect(
      tried.tryCandidateRules.policy.rules.map((r) => [r.name, r.candidate, r.replaces]),
    ).toEqual([
      ['hourly', false, null],
      ['daily', false, null],
      ['hourly-next', true, 'hourly'],
      ['burst', true, null],
    ]);

    // the data plane decides the candidates beside the live rules: the third check is allowed
    // by the live limit of 5 and would have been denied by the proposed 2
    const first = await eventually(
      'the candidates published',
      () => engine.check(secret, 'reports', 'probe', 0),
      (result) => (result.candidates ?? []).length === 2,
    );
    expect(first.allowed).toBe(true);
    const decisions = [];
    for (let i = 0; i < 3; i++) decisions.push(await engine.check(secret, 'reports', 'alice'));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true]);
    const third = decisions[2]?.candidates?.find((c) => c.name === 'hourly-next');
    expect(third?.allowed).toBe(false);

    const applied = await gql<{ applyCandidateRules: Payload }>(app, admin, APPLY, { id });
    const rules = applied.applyCandidateRules.policy.rules;
    expect(rules.map((r) => [r.name, r.candidate, r.limit])).toEqual([
      ['hourly', false, 2],
      ['daily', false, 100],
      ['burst', false, 100],
    ]);
    // same algorithm and window: the live counter carries on (the new rule is new)
    expect(applied.applyCandidateRules.countersReset).toEqual([]);
    const next = await eventually(
      'the applied limits published',
      () => engine.check(secret, 'reports', 'alice'),
      (result) => result.rules[0]?.limit === 2,
    );
    expect(next.allowed).toBe(false);
    expect(next.deniedBy).toBe('hourly');
    expect(next.candidates).toBeUndefined();

    const audit = await app.prisma.auditLog.findMany({
      where: { tenantId, entityId: id, action: { startsWith: 'policy.candidates' } },
      orderBy: { id: 'asc' },
      select: { action: true },
    });
    expect(audit.map((a) => a.action)).toEqual([
      'policy.candidates_try',
      'policy.candidates_apply',
    ]);
  });

  it('discards a proposal in one step, the live rules as they were', async () => {
    const id = await ownPolicy('exports');
    await gql(app, admin, TRY, {
      i: {
        policyId: id,
        candidateRules: [{ name: 'hourly-next', replaces: 'hourly', ...hourly(1) }],
      },
    });
    const discarded = await gql<{ discardCandidateRules: Payload }>(app, admin, DISCARD, { id });
    expect(discarded.discardCandidateRules.policy.rules.map((r) => [r.name, r.limit])).toEqual([
      ['hourly', 5],
      ['daily', 100],
    ]);
    expect(await gqlError(app, admin, APPLY, { id })).toMatchObject({
      code: 'BAD_USER_INPUT',
      issues: [{ field: 'policyId', message: 'exports has no candidate rules to apply' }],
    });
  });

  it('refuses a proposal that names no live rule, two for one rule, or a concurrency rule, by field', async () => {
    const id = await ownPolicy('uploads');
    const refusal = (candidateRules: unknown[]) =>
      gqlError(app, admin, TRY, { i: { policyId: id, candidateRules } });
    expect(await refusal([{ name: 'x', replaces: 'weekly', ...hourly(1) }])).toMatchObject({
      code: 'BAD_USER_INPUT',
      issues: [
        {
          field: 'input.candidateRules.0.replaces',
          message: 'the policy has no rule named weekly',
        },
      ],
    });
    expect(
      await refusal([
        { name: 'a', replaces: 'hourly', ...hourly(1) },
        { name: 'b', replaces: 'hourly', ...hourly(2) },
      ]),
    ).toMatchObject({
      issues: [
        {
          field: 'input.candidateRules.1.replaces',
          message: 'candidate a already proposes values for hourly',
        },
      ],
    });
    const concurrency = await refusal([
      { name: 'inflight', algorithm: 'CONCURRENCY', limit: 2, leaseTtlMs: 60_000 },
    ]);
    expect(concurrency.code).toBe('BAD_USER_INPUT');
    expect(concurrency.issues).toEqual([
      expect.objectContaining({ field: expect.stringMatching(/^input\.candidateRules\.0/) }),
    ]);
  });

  it('keeps the link through an export and an import of the document', async () => {
    const id = await ownPolicy('links');
    await gql(app, admin, TRY, {
      i: {
        policyId: id,
        candidateRules: [{ name: 'hourly-next', replaces: 'hourly', ...hourly(3) }],
      },
    });
    const { exportPolicies } = await gql<{ exportPolicies: string }>(
      app,
      admin,
      `query ($t: ID!) { exportPolicies(tenantId: $t, format: JSON) }`,
      { t: tenantId },
    );
    const document = JSON.parse(exportPolicies) as {
      policies: { name: string; candidateRules?: { name: string; replaces?: string }[] }[];
    };
    expect(document.policies.find((p) => p.name === 'links')?.candidateRules).toEqual([
      expect.objectContaining({ name: 'hourly-next', replaces: 'hourly' }),
    ]);
    const { importPolicies } = await gql<{ importPolicies: { changes: unknown[] } }>(
      app,
      admin,
      `mutation ($i: ImportPoliciesInput!) { importPolicies(input: $i) { changes { path } } }`,
      { i: { tenantId, document: exportPolicies, format: 'JSON', dryRun: true } },
    );
    expect(importPolicies.changes).toEqual([]);
  });

  it('is for its admins: a viewer is refused, another tenant sees nothing', async () => {
    const id = await ownPolicy('guarded');
    expect((await gqlError(app, viewer, DISCARD, { id })).code).toBe('FORBIDDEN');
    expect((await gqlError(app, outsider, DISCARD, { id })).code).toBe('NOT_FOUND');
  });
});

describe("a plan's template", () => {
  it('is tried and applied by operators for every tenant on the plan, the tenants’ bounds kept; tenant admins are refused', async () => {
    const proposal = {
      policyId: templateId,
      candidateRules: [
        {
          name: 'burst-next',
          replaces: 'burst',
          algorithm: 'TOKEN_BUCKET',
          capacity: 3,
          refillPerSecond: 0.001,
        },
      ],
    };
    expect((await gqlError(app, admin, TRY, { i: proposal })).code).toBe('FORBIDDEN');
    const tried = await gql<{ tryCandidateRules: Payload }>(app, op, TRY, { i: proposal });
    // the tenant of these tests and the outsider's
    expect(tried.tryCandidateRules.tenantsRepublished).toBe(2);
    expect((await gqlError(app, admin, APPLY, { id: templateId })).code).toBe('FORBIDDEN');

    const applied = await gql<{ applyCandidateRules: Payload }>(app, op, APPLY, {
      id: templateId,
    });
    const burst = applied.applyCandidateRules.policy.rules.find((r) => r.name === 'burst');
    expect(burst).toMatchObject({ capacity: 3, candidate: false });
    expect(burst?.tenantBounds).toEqual([{ param: 'capacity', max: 50 }]);
    expect(applied.applyCandidateRules.policy.rules.some((r) => r.candidate)).toBe(false);
    expect(applied.applyCandidateRules.tenantsRepublished).toBe(2);
    const audit = await app.prisma.auditLog.count({
      where: { entityId: templateId, action: 'plan_policy.candidates_apply' },
    });
    expect(audit).toBe(1);
  });
});
