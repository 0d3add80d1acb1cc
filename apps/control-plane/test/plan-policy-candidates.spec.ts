import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CREATE_PLAN,
  CREATE_PLAN_POLICY,
  dataPlane,
  eventually,
  gql,
  gqlError,
  operator,
  planWithApi,
  serviceKey,
  slug,
  tenantOn,
} from './support/policies';
import { startTestApp, type TestApp } from './support/test-app';
import { tokenFor } from './support/usage';

// Try in shadow as a tenant's change of a plan policy: a tenant admin proposes the values its
// plan opens (the template `api`: burst, a token bucket of 5 whose capacity tenants may set from
// 1 to 50, and a fixed daily window), runs them in shadow for its tenant alone, then applies them
// as its change of the policy or discards them.

const POLICY = /* GraphQL */ `
  policy {
    id
    changed
    rules {
      name
      source
      candidate
      replaces
      params {
        name
        value
        source
      }
    }
  }
  version
  countersReset {
    rule
  }
`;
const TRY = `mutation ($i: TryPlanPolicyCandidatesInput!) { tryPlanPolicyCandidates(input: $i) { ${POLICY} } }`;
const APPLY = `mutation ($t: ID!, $p: String!) { applyPlanPolicyCandidates(tenantId: $t, policy: $p) { ${POLICY} } }`;
const DISCARD = `mutation ($t: ID!, $p: String!) { discardPlanPolicyCandidates(tenantId: $t, policy: $p) { ${POLICY} } }`;
const CHANGE = /* GraphQL */ `
  mutation ($i: ChangePlanPolicyInput!) {
    changePlanPolicy(input: $i) {
      version
    }
  }
`;
const EXPORT = `query ($t: ID!) { exportPolicies(tenantId: $t, format: JSON) }`;
const IMPORT = /* GraphQL */ `
  mutation ($i: ImportPoliciesInput!) {
    importPolicies(input: $i) {
      changes {
        path
      }
    }
  }
`;

const EFFECTIVE = `query ($t: ID!) { effectivePolicies(tenantId: $t) { id name changed rules { name candidate source replaces params { name value source } } } }`;
const UPDATE_TEMPLATE = `mutation ($id: ID!, $i: PolicySettingsInput!) {
  updatePlanPolicy(id: $id, input: $i) { tenantsTrimmed }
}`;
/** The template `api` of `planWithApi`, its burst's capacity open up to `max`. */
const template = (max: number, burstValues: Record<string, number> = {}) => ({
  name: 'api',
  redisTimeoutMs: 1000,
  rules: [
    {
      name: 'burst',
      algorithm: 'TOKEN_BUCKET',
      capacity: 5,
      refillPerSecond: 0.001,
      ...burstValues,
      tenantBounds: [{ param: 'capacity', min: 1, max }],
    },
    { name: 'daily', algorithm: 'FIXED_WINDOW', limit: 1000, windowMs: 86_400_000 },
  ],
});

interface Rule {
  name: string;
  source: 'PLAN' | 'TENANT';
  candidate: boolean;
  replaces: string | null;
  params: { name: string; value: number | null; source: 'PLAN' | 'TENANT' }[];
}
interface Payload {
  policy: { id: string; changed: boolean; rules: Rule[] };
  version: number;
  countersReset: { rule: string }[];
}

const burst = (capacity: number, extra: Record<string, unknown> = {}) => ({
  name: 'burst-next',
  replaces: 'burst',
  algorithm: 'TOKEN_BUCKET',
  capacity,
  ...extra,
});
const valueOf = (rule: Rule | undefined, param: string) =>
  rule?.params.find((p) => p.name === param);

let app: TestApp;
let op: string;
let planId: string;
let engine: Awaited<ReturnType<typeof dataPlane>>;

beforeAll(async () => {
  app = await startTestApp();
  op = (await operator(app)).token;
  ({ planId } = await planWithApi(app, op, 5));
  engine = await dataPlane(app);
});
afterAll(async () => {
  await engine?.stop();
  await app?.close();
});

async function effectivePolicy(token: string, tenantId: string, name: string) {
  const { effectivePolicies } = await gql<{
    effectivePolicies: (Payload['policy'] & { name: string })[];
  }>(app, token, EFFECTIVE, { t: tenantId });
  return effectivePolicies.find((policy) => policy.name === name);
}
const effectiveApi = (token: string, tenantId: string) => effectivePolicy(token, tenantId, 'api');

async function tenant(plan = planId) {
  const tenantId = await tenantOn(app, op, plan);
  return {
    tenantId,
    admin: await tokenFor(app, 'tenant_admin', tenantId),
    secret: await serviceKey(app, tenantId),
  };
}

describe("a tenant's candidates for a plan policy", () => {
  it('run in shadow for that tenant alone, then become its change of the policy, counters kept', async () => {
    const a = await tenant();
    const b = await tenant();
    const tried = await gql<{ tryPlanPolicyCandidates: Payload }>(app, a.admin, TRY, {
      i: { tenantId: a.tenantId, policy: 'api', candidateRules: [burst(2)] },
    });
    const rules = tried.tryPlanPolicyCandidates.policy.rules;
    expect(rules.map((r) => [r.name, r.source, r.candidate, r.replaces])).toEqual([
      ['burst', 'PLAN', false, null],
      ['daily', 'PLAN', false, null],
      ['burst-next', 'TENANT', true, 'burst'],
    ]);
    // the value it proposes is the tenant's; the one left out is the plan's
    expect(valueOf(rules[2], 'capacity')).toEqual({ name: 'capacity', value: 2, source: 'TENANT' });
    expect(valueOf(rules[2], 'refillPerSecond')).toEqual({
      name: 'refillPerSecond',
      value: 0.001,
      source: 'PLAN',
    });
    expect(tried.tryPlanPolicyCandidates.policy.changed).toBe(false);

    // the third check is allowed by the plan's 5 and would have been denied by the proposed 2
    await eventually(
      'the candidate published',
      () => engine.check(a.secret, 'api', 'probe', 0),
      (result) => (result.candidates ?? []).length === 1,
    );
    const decisions = [];
    for (let i = 0; i < 3; i++) decisions.push(await engine.check(a.secret, 'api', 'alice'));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true]);
    expect(decisions[2]?.candidates).toEqual([
      expect.objectContaining({ name: 'burst-next', allowed: false }),
    ]);
    // the other tenant on the plan decides without it
    const other = await eventually(
      "the other tenant's policy published",
      () => engine.check(b.secret, 'api', 'alice'),
      (result) => result.rules.length === 2,
    );
    expect(other.candidates).toBeUndefined();

    const applied = await gql<{ applyPlanPolicyCandidates: Payload }>(app, a.admin, APPLY, {
      t: a.tenantId,
      p: 'api',
    });
    const policy = applied.applyPlanPolicyCandidates.policy;
    expect(policy.changed).toBe(true);
    expect(policy.rules.map((r) => [r.name, r.candidate])).toEqual([
      ['burst', false],
      ['daily', false],
    ]);
    expect(valueOf(policy.rules[0], 'capacity')).toEqual({
      name: 'capacity',
      value: 2,
      source: 'TENANT',
    });
    expect(valueOf(policy.rules[0], 'refillPerSecond')?.source).toBe('PLAN');
    expect(applied.applyPlanPolicyCandidates.countersReset).toEqual([]);
    // the live bucket carries on (2 of 5 left, now of 2): two more, then denied by burst
    const after = await eventually(
      'the applied values published',
      () => engine.check(a.secret, 'api', 'probe', 0),
      (result) => result.rules[0]?.limit === 2 && result.candidates === undefined,
    );
    expect(after.allowed).toBe(true);
    const next = [];
    for (let i = 0; i < 3; i++) next.push(await engine.check(a.secret, 'api', 'alice'));
    expect(next.map((d) => d.allowed)).toEqual([true, true, false]);
    expect(next[2]?.deniedBy).toBe('burst');

    const audit = await app.prisma.auditLog.findMany({
      where: { tenantId: a.tenantId, action: { startsWith: 'policy_change.candidates' } },
      orderBy: { id: 'asc' },
      select: { action: true },
    });
    expect(audit.map((row) => row.action)).toEqual([
      'policy_change.candidates_try',
      'policy_change.candidates_apply',
    ]);
  });

  it("are discarded in one step, the tenant's values kept; a change of values keeps them", async () => {
    const a = await tenant();
    await gql(app, a.admin, CHANGE, {
      i: { tenantId: a.tenantId, policy: 'api', rules: [{ name: 'burst', capacity: 10 }] },
    });
    await gql(app, a.admin, TRY, {
      i: { tenantId: a.tenantId, policy: 'api', candidateRules: [burst(20)] },
    });
    // back to the plan's values: the candidate stays
    await gql(app, a.admin, CHANGE, { i: { tenantId: a.tenantId, policy: 'api', rules: [] } });
    const api = await effectiveApi(a.admin, a.tenantId);
    expect(api?.changed).toBe(false);
    expect(api?.rules.filter((r) => r.candidate).map((r) => r.name)).toEqual(['burst-next']);

    await gql(app, a.admin, CHANGE, {
      i: { tenantId: a.tenantId, policy: 'api', rules: [{ name: 'burst', capacity: 7 }] },
    });
    const discarded = await gql<{ discardPlanPolicyCandidates: Payload }>(app, a.admin, DISCARD, {
      t: a.tenantId,
      p: 'api',
    });
    const policy = discarded.discardPlanPolicyCandidates.policy;
    expect(policy.rules.some((r) => r.candidate)).toBe(false);
    expect(valueOf(policy.rules[0], 'capacity')?.value).toBe(7);
    expect(await gqlError(app, a.admin, APPLY, { t: a.tenantId, p: 'api' })).toMatchObject({
      code: 'BAD_USER_INPUT',
      issues: [{ field: 'policy', message: 'the tenant has no candidate rules for api' }],
    });
  });

  it('are refused, by field, where they go beyond what the plan opens', async () => {
    const a = await tenant();
    const refusal = (candidateRules: unknown[], policy = 'api') =>
      gqlError(app, a.admin, TRY, { i: { tenantId: a.tenantId, policy, candidateRules } });
    const issues = async (candidateRules: unknown[]) => (await refusal(candidateRules)).issues;

    expect(await refusal([burst(60)])).toMatchObject({
      code: 'BAD_USER_INPUT',
      issues: [
        {
          field: 'input.candidateRules.0.capacity',
          message: "must be at most 50 (the plan's bound)",
        },
      ],
    });
    expect(await issues([burst(5, { refillPerSecond: 1 })])).toEqual([
      {
        field: 'input.candidateRules.0.refillPerSecond',
        message: 'the plan does not let tenants change refillPerSecond of rule burst',
      },
    ]);
    expect(await issues([{ ...burst(5), replaces: null }])).toEqual([
      {
        field: 'input.candidateRules.0.replaces',
        message:
          "must name the rule of api it proposes values for: a tenant cannot add rules to a plan's policy",
      },
    ]);
    expect(
      await issues([
        { name: 'burst-next', replaces: 'burst', algorithm: 'GCRA', limit: 5, periodMs: 1000 },
      ]),
    ).toEqual([
      {
        field: 'input.candidateRules.0.algorithm',
        message: "must be token_bucket, the algorithm of burst (the plan's)",
      },
    ]);
    expect(await issues([{ ...burst(5), name: 'daily' }, burst(6)])).toEqual([
      {
        field: 'input.candidateRules.0.name',
        message: "the plan's policy api has a rule named daily",
      },
      {
        field: 'input.candidateRules.1.replaces',
        message: 'candidate daily already proposes values for burst',
      },
    ]);
    expect(await refusal([burst(5)], 'nope')).toMatchObject({
      issues: [{ field: 'input.policy', message: 'the plan has no policy named nope' }],
    });
    // nothing was written
    expect(await app.prisma.policy.count({ where: { tenantId: a.tenantId } })).toBe(0);
  });

  it('are for the tenant’s admins: a viewer is refused, another tenant’s admin finds nothing', async () => {
    const a = await tenant();
    const viewer = await tokenFor(app, 'tenant_viewer', a.tenantId);
    const outsider = (await tenant()).admin;
    const input = { i: { tenantId: a.tenantId, policy: 'api', candidateRules: [burst(2)] } };
    expect((await gqlError(app, viewer, TRY, input)).code).toBe('FORBIDDEN');
    expect((await gqlError(app, outsider, TRY, input)).code).toBe('NOT_FOUND');
    expect((await gqlError(app, outsider, DISCARD, { t: a.tenantId, p: 'api' })).code).toBe(
      'NOT_FOUND',
    );
    // operators may, as for any change of the tenant's
    await gql(app, op, TRY, input);
  });

  it('go through an export and an import, and are checked against the plan there', async () => {
    const a = await tenant();
    await gql(app, a.admin, TRY, {
      i: { tenantId: a.tenantId, policy: 'api', candidateRules: [burst(3)] },
    });
    const { exportPolicies } = await gql<{ exportPolicies: string }>(app, a.admin, EXPORT, {
      t: a.tenantId,
    });
    const document = JSON.parse(exportPolicies) as {
      changes: { policy: string; rules: object; candidateRules?: Record<string, unknown>[] }[];
    };
    expect(document.changes).toEqual([
      {
        policy: 'api',
        rules: {},
        candidateRules: [
          // the values it proposes, as a change's
          { name: 'burst-next', algorithm: 'token_bucket', capacity: 3, replaces: 'burst' },
        ],
      },
    ]);
    const dryRun = await gql<{ importPolicies: { changes: unknown[] } }>(app, a.admin, IMPORT, {
      i: { tenantId: a.tenantId, document: exportPolicies, format: 'JSON', dryRun: true },
    });
    expect(dryRun.importPolicies.changes).toEqual([]);

    const beyond = structuredClone(document);
    beyond.changes[0]!.candidateRules![0]!.capacity = 99;
    expect(
      await gqlError(app, a.admin, IMPORT, {
        i: { tenantId: a.tenantId, document: JSON.stringify(beyond), format: 'JSON' },
      }),
    ).toMatchObject({
      code: 'BAD_USER_INPUT',
      issues: [
        {
          field: 'document.changes.0.candidateRules.0.capacity',
          message: "must be at most 50 (the plan's bound)",
        },
      ],
    });
  });

  it('are trimmed, audited, when the plan no longer opens their values', async () => {
    const own = await planWithApi(app, op, 5);
    const a = await tenant(own.planId);
    await gql(app, a.admin, TRY, {
      i: { tenantId: a.tenantId, policy: 'api', candidateRules: [burst(40)] },
    });
    const { updatePlanPolicy } = await gql<{ updatePlanPolicy: { tenantsTrimmed: number } }>(
      app,
      op,
      UPDATE_TEMPLATE,
      { id: own.policyId, i: template(20) },
    );
    expect(updatePlanPolicy.tenantsTrimmed).toBe(1);
    // nothing of the change is left
    expect(await app.prisma.policy.count({ where: { tenantId: a.tenantId } })).toBe(0);
    const trim = await app.prisma.auditLog.findFirst({
      where: { tenantId: a.tenantId, action: 'policy_change.trim' },
      select: { before: true, after: true },
    });
    expect(trim).toMatchObject({
      before: { candidateRules: [expect.objectContaining({ name: 'burst-next' })] },
      after: { rules: {}, candidateRules: [] },
    });
  });
  it("follow an operator's edit of the values they do not propose, as the tenant's values do", async () => {
    const own = await planWithApi(app, op, 5);
    const a = await tenant(own.planId);
    await gql(app, a.admin, TRY, {
      i: { tenantId: a.tenantId, policy: 'api', candidateRules: [burst(3)] },
    });
    const { updatePlanPolicy } = await gql<{ updatePlanPolicy: { tenantsTrimmed: number } }>(
      app,
      op,
      UPDATE_TEMPLATE,
      { id: own.policyId, i: template(20, { refillPerSecond: 0.5 }) },
    );
    expect(updatePlanPolicy.tenantsTrimmed).toBe(0);
    const policy = await effectiveApi(a.admin, a.tenantId);
    const candidate = policy?.rules.find((r) => r.candidate);
    expect(candidate?.name).toBe('burst-next');
    expect(valueOf(candidate, 'capacity')?.value).toBe(3);
    expect(valueOf(candidate, 'refillPerSecond')).toEqual({
      name: 'refillPerSecond',
      value: 0.5,
      source: 'PLAN',
    });
  });

  it('fit in one composite call with the template’s own rules and candidates', async () => {
    // 17 rules, each of whose capacity the plan opens: 15 candidates fill the 32 a call decides
    const rules = Array.from({ length: 17 }, (_, i) => ({
      name: `r${i}`,
      algorithm: 'TOKEN_BUCKET',
      capacity: 5,
      refillPerSecond: 1,
      tenantBounds: [{ param: 'capacity', min: 1, max: 50 }],
    }));
    const { createPlan } = await gql<{ createPlan: { id: string } }>(app, op, CREATE_PLAN, {
      input: { slug: slug('plan'), name: 'Wide' },
    });
    const { createPlanPolicy } = await gql<{ createPlanPolicy: { policy: { id: string } } }>(
      app,
      op,
      CREATE_PLAN_POLICY,
      { planId: createPlan.id, input: { name: 'wide', redisTimeoutMs: 1000, rules } },
    );
    const a = await tenant(createPlan.id);
    const proposal = (n: number) =>
      rules.slice(0, n).map((rule) => ({
        name: `${rule.name}-trial`,
        replaces: rule.name,
        algorithm: 'TOKEN_BUCKET',
        capacity: 2,
      }));
    expect(
      await gqlError(app, a.admin, TRY, {
        i: { tenantId: a.tenantId, policy: 'wide', candidateRules: proposal(16) },
      }),
    ).toMatchObject({
      code: 'BAD_USER_INPUT',
      issues: [
        {
          field: 'input.candidateRules',
          message:
            "the plan's policy wide has room for 15 more rules at most (32 with its own rules and candidates)",
        },
      ],
    });
    await gql(app, a.admin, TRY, {
      i: { tenantId: a.tenantId, policy: 'wide', candidateRules: proposal(15) },
    });
    // an operator's candidate on the template takes one place: the tenant's last is trimmed
    const { tryCandidateRules } = await gql<{ tryCandidateRules: { tenantsTrimmed: number } }>(
      app,
      op,
      `mutation ($i: TryCandidateRulesInput!) { tryCandidateRules(input: $i) { tenantsTrimmed } }`,
      {
        i: {
          policyId: createPlanPolicy.policy.id,
          candidateRules: [{ ...rules[0], name: 'r0-next', replaces: 'r0', tenantBounds: [] }],
        },
      },
    );
    expect(tryCandidateRules.tenantsTrimmed).toBe(1);
    const wide = await effectivePolicy(a.admin, a.tenantId, 'wide');
    const candidates = wide?.rules.filter((r) => r.candidate) ?? [];
    expect(candidates.map((r) => [r.name, r.source])).toEqual([
      ['r0-next', 'PLAN'],
      ...proposal(14).map((c) => [c.name, 'TENANT']),
    ]);
  });
});
