import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gql, gqlError, operator, planWithApi, published, tenantOn } from './support/policies';
import { startTestApp, type TestApp } from './support/test-app';
import { decision, recordUsage, tokenFor } from './support/usage';

// Try in shadow's estimate: how many of a policy's heaviest identifiers of the last 15 minutes
// would have exceeded proposed limits, from the spend per minute the data planes keep.

const ESTIMATE = /* GraphQL */ `
  query ($input: EstimateRulesInput!) {
    estimateRules(input: $input) {
      from
      to
      identifiers
      rules {
        name
        wouldExceed
        deniedCost
        examples
        outlastsRange
      }
    }
  }
`;

const perMinute = (limit: number) => ({
  name: 'per-minute',
  algorithm: 'FIXED_WINDOW',
  limit,
  windowMs: 60_000,
});
const roomy = { name: 'roomy', algorithm: 'TOKEN_BUCKET', capacity: 1000, refillPerSecond: 10 };
const daily = { name: 'daily', algorithm: 'FIXED_WINDOW', limit: 1000, windowMs: 86_400_000 };

let app: TestApp;
let op: string;
let tenantId: string;
let viewer: string;
let outsider: string;

beforeAll(async () => {
  app = await startTestApp();
  op = (await operator(app)).token;
  const { planId } = await planWithApi(app, op, 5);
  tenantId = await tenantOn(app, op, planId);
  await published(app, tenantId);
  viewer = await tokenFor(app, 'tenant_viewer', tenantId);
  outsider = await tokenFor(app, 'tenant_admin', await tenantOn(app, op, planId));
  // two minutes ago: heavy spent 300, light 10 and 20 (in two calls)
  const at = Date.now() - 120_000;
  await recordUsage(app, [
    decision(tenantId, at, { identifier: 'heavy', cost: 300 }),
    decision(tenantId, at, { identifier: 'light', cost: 10 }),
    decision(tenantId, at, { identifier: 'light', cost: 20 }),
  ]);
});
afterAll(async () => {
  await app.close();
});

const estimate = async (token: string, rules: unknown[], policy = 'api') =>
  (
    await gql<{
      estimateRules: {
        identifiers: number;
        from: string;
        to: string;
        rules: {
          name: string;
          wouldExceed: number;
          deniedCost: number;
          examples: string[];
          outlastsRange: boolean;
        }[];
      };
    }>(app, token, ESTIMATE, { input: { tenantId, policy, rules } })
  ).estimateRules;

describe('estimateRules', () => {
  it('replays the heaviest identifiers through each rule: who would have been denied, and how much', async () => {
    const result = await estimate(viewer, [perMinute(100), roomy, perMinute(20), daily]);

    expect(result.identifiers).toBe(2);
    expect(new Date(result.to).getTime() - new Date(result.from).getTime()).toBe(15 * 60_000);
    const exact = { outlastsRange: false };
    expect(result.rules).toEqual([
      // 300 in one minute against 100: 200 denied
      { name: 'per-minute', wouldExceed: 1, deniedCost: 200, examples: ['heavy'], ...exact },
      { name: 'roomy', wouldExceed: 0, deniedCost: 0, examples: [], ...exact },
      // against 20, light's 30 is over too; the costliest comes first
      {
        name: 'per-minute',
        wouldExceed: 2,
        deniedCost: 280 + 10,
        examples: ['heavy', 'light'],
        ...exact,
      },
      // a day's window: what was spent before the 15 minutes is not known
      { name: 'daily', wouldExceed: 0, deniedCost: 0, examples: [], outlastsRange: true },
    ]);
  });

  it('answers no identifiers for a policy without spend', async () => {
    const { planId } = await planWithApi(app, op, 5);
    const quiet = await tenantOn(app, op, planId);
    await published(app, quiet);
    const result = (
      await gql<{ estimateRules: { identifiers: number; rules: { wouldExceed: number }[] } }>(
        app,
        op,
        ESTIMATE,
        { input: { tenantId: quiet, policy: 'api', rules: [perMinute(1)] } },
      )
    ).estimateRules;

    expect(result.identifiers).toBe(0);
    expect(result.rules[0]?.wouldExceed).toBe(0);
  });

  it('names the bad field: a rule out of range, a concurrency rule, too many rules, an unknown policy', async () => {
    const input = (rules: unknown[], policy = 'api') => ({ input: { tenantId, policy, rules } });

    expect(await gqlError(app, viewer, ESTIMATE, input([{ ...roomy, capacity: 0 }]))).toMatchObject(
      {
        code: 'BAD_USER_INPUT',
        field: 'input.rules.0.capacity',
      },
    );
    expect(
      await gqlError(
        app,
        viewer,
        ESTIMATE,
        input([
          roomy,
          { name: 'in-flight', algorithm: 'CONCURRENCY', limit: 2, leaseTtlMs: 60_000 },
        ]),
      ),
    ).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.rules.1.algorithm' });
    expect(await gqlError(app, viewer, ESTIMATE, input(Array(9).fill(roomy)))).toMatchObject({
      code: 'BAD_USER_INPUT',
      field: 'input.rules',
    });
    expect(await gqlError(app, viewer, ESTIMATE, input([roomy], 'nope'))).toMatchObject({
      code: 'BAD_USER_INPUT',
      field: 'input.policy',
    });
  });

  it("refuses another tenant's members", async () => {
    expect(
      (
        await gqlError(app, outsider, ESTIMATE, {
          input: { tenantId, policy: 'api', rules: [roomy] },
        })
      ).code,
    ).toBe('NOT_FOUND');
  });
});
