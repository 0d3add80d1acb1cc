import { formatPath } from '@sluice/policy';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkChangeBounds, compileState, parsePath } from './compile-state';
import { fitChange, fitOverride } from './fit';
import {
  applyPolicyDocument,
  diffPolicyDocuments,
  parsePolicyDocument,
  serializePolicyDocument,
  toPolicyDocument,
} from './policy-document';
import { effectivePolicies, toConfigInput, type PolicyRow, type TenantState } from './tenant-state';

const template: PolicyRow = {
  id: 'pol_api',
  name: 'api',
  description: '',
  mode: 'enforce',
  failMode: 'open',
  redisTimeoutMs: 50,
  reservationTtlMs: null,
  rules: [
    {
      name: 'burst',
      algorithm: 'token_bucket',
      params: { capacity: 5, refillPerSecond: 1 },
      candidate: false,
      replaces: null,
      tenantBounds: { capacity: { min: 1, max: 50 } },
    },
    {
      name: 'daily',
      algorithm: 'fixed_window',
      params: { limit: 1000, windowMs: 86_400_000 },
      candidate: false,
      replaces: null,
      tenantBounds: null,
    },
  ],
};

const own: PolicyRow = {
  ...template,
  id: 'pol_reports',
  name: 'reports',
  reservationTtlMs: 60_000,
  rules: [
    {
      name: 'hourly',
      algorithm: 'sliding_window_counter',
      params: { limit: 60, windowMs: 3_600_000 },
      candidate: false,
      replaces: null,
      tenantBounds: null,
    },
  ],
};

const state: TenantState = {
  tenant: { id: 'tnt_a', slug: 'a', status: 'active' },
  planPolicies: [template],
  ownPolicies: [own],
  changes: [
    {
      id: 'pol_change',
      basePolicyId: 'pol_api',
      rules: { burst: { capacity: 9 } },
      candidates: [],
    },
  ],
  overrides: [
    {
      id: 'ovr_1',
      policyId: 'pol_api',
      match: 'prefix',
      identifier: 'premium_',
      rules: { burst: { capacity: 40 } },
      reason: 'premium',
      expiresAt: new Date('2030-01-01T00:00:00Z'),
    },
  ],
};

describe('effective policies', () => {
  it("merge the tenant's change over its plan's template and say where each value comes from", () => {
    const [api, reports] = effectivePolicies(state);
    expect(api).toMatchObject({ name: 'api', source: 'plan', changed: true });
    expect(api?.rules[0]?.params).toEqual([
      { name: 'capacity', value: 9, source: 'tenant', bounds: { min: 1, max: 50 } },
      { name: 'refillPerSecond', value: 1, source: 'plan' },
    ]);
    expect(api?.overrides.map((o) => o.id)).toEqual(['ovr_1']);
    expect(reports).toMatchObject({ name: 'reports', source: 'tenant', changed: false });
  });

  it('compile with the policy lib into what the data plane reads', () => {
    const compiled = compileState(state);
    expect('tenant' in compiled && compiled.tenant.policies['api']?.rules[0]).toEqual({
      name: 'burst',
      rule: { algorithm: 'token_bucket', capacity: 9, refillPerSecond: 1 },
    });
    expect(toConfigInput(state).policies[1]).toMatchObject({ reservations: { ttlMs: 60_000 } });
  });

  it("trace the policy lib's complaints to the rule or override they are about", () => {
    const broken: TenantState = {
      ...state,
      overrides: [{ ...state.overrides[0]!, rules: { burst: { capacity: 0 } } }],
    };
    const compiled = compileState(broken);
    expect('issues' in compiled && compiled.issues).toEqual([
      expect.objectContaining({
        policyId: 'pol_api',
        overrideId: 'ovr_1',
        rest: ['rules', 'burst', 'capacity'],
      }),
    ]);
  });
});

describe('paths', () => {
  it('parsePath reads back what formatPath writes', () => {
    const segment = fc.oneof(
      fc.nat(1000),
      fc.stringMatching(/^[A-Za-z_$][\w$-]{0,8}$/),
      fc.string({ minLength: 1, maxLength: 8 }),
    );
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 6 }), (segments) => {
        // formatPath needs a name first; the lib's paths always start with one
        const path: (string | number)[] = ['policies', ...segments];
        expect(parsePath(formatPath(path))).toEqual(path);
      }),
    );
  });
});

describe('bounds', () => {
  const fieldOf = (rule: string, param?: string) => [rule, param].filter(Boolean).join('.');

  it('allow opened parameters within range only', () => {
    expect(checkChangeBounds(state, 'pol_api', { burst: { capacity: 50 } }, fieldOf)).toEqual([]);
    expect(
      checkChangeBounds(
        state,
        'pol_api',
        { burst: { capacity: 0, refillPerSecond: 2 }, daily: { limit: 1 }, gone: { limit: 1 } },
        fieldOf,
      ),
    ).toEqual([
      { field: 'burst.capacity', message: "must be at least 1 (the plan's bound)" },
      {
        field: 'burst.refillPerSecond',
        message: 'the plan does not let tenants change refillPerSecond of rule burst',
      },
      {
        field: 'daily.limit',
        message: 'the plan does not let tenants change limit of rule daily',
      },
      { field: 'gone', message: 'the policy has no rule named gone' },
    ]);
  });

  it('trim changes and overrides to what a changed template still allows', () => {
    const tighter: PolicyRow = {
      ...template,
      rules: [
        { ...template.rules[0]!, tenantBounds: { capacity: { max: 5 } } },
        { ...template.rules[1]!, algorithm: 'sliding_window_log' },
      ],
    };
    expect(fitChange({ burst: { capacity: 9 } }, tighter, template)).toEqual({});
    expect(fitChange({ burst: { capacity: 4 } }, tighter, template)).toEqual({
      burst: { capacity: 4 },
    });
    expect(
      fitOverride({ burst: { capacity: 40 }, daily: { limit: 3 } }, tighter, template),
    ).toEqual({ burst: { capacity: 40 } });
  });
});

describe('policy documents', () => {
  it('export, parse and apply back to the same state (ids kept), in YAML and JSON', () => {
    const document = toPolicyDocument(state);
    for (const format of ['yaml', 'json'] as const) {
      const parsed = parsePolicyDocument(serializePolicyDocument(document, format), format);
      expect('document' in parsed && parsed.document).toEqual(document);
      const applied = 'document' in parsed ? applyPolicyDocument(state, parsed.document) : null;
      expect(applied && 'state' in applied && applied.state).toEqual(state);
    }
    expect(diffPolicyDocuments(document, document)).toEqual([]);
  });

  it('diff by policy, change and override', () => {
    const before = toPolicyDocument(state);
    const after = {
      ...before,
      policies: [],
      changes: [{ policy: 'api', rules: { burst: { capacity: 10 } } }],
      overrides: [...before.overrides, { policy: 'api', identifier: 'vip', rules: {} }],
    };
    expect(diffPolicyDocuments(before, after).map(({ path, kind }) => ({ path, kind }))).toEqual([
      { path: 'policies.reports', kind: 'removed' },
      { path: 'changes.api', kind: 'changed' },
      { path: 'overrides.api.vip', kind: 'added' },
    ]);
  });

  it('name what a document gets wrong', () => {
    expect(parsePolicyDocument('format: x\nextra: 1\n', 'yaml')).toEqual({
      issues: [
        { field: 'document.format', message: 'must be sluice.dev/policies/v1' },
        { field: 'document', message: 'unknown field extra' },
      ],
    });
    const applied = applyPolicyDocument(state, {
      format: 'sluice.dev/policies/v1',
      policies: [{ name: 'api', rules: [] }],
      changes: [{ policy: 'nope', rules: {} }],
      overrides: [{ policy: 'nope', identifier: 'x', rules: {} }],
    });
    expect(applied).toEqual({
      issues: [
        expect.objectContaining({ field: 'document.policies.0.name' }),
        { field: 'document.changes.0.policy', message: 'the plan has no policy named nope' },
        { field: 'document.overrides.0.policy', message: 'no policy named nope' },
      ],
    });
  });
});
