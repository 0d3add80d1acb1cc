import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/test-app';
import { createTenant, decision, denial, errorOf, recordUsage, tokenFor } from './support/usage';

const LOG = /* GraphQL */ `
  query Log(
    $tenantId: ID!
    $policy: String!
    $identifier: String
    $identifierPrefix: String
    $rule: String
    $reason: String
    $from: DateTime
    $to: DateTime
    $first: Int
  ) {
    decisionLog(
      tenantId: $tenantId
      policy: $policy
      identifier: $identifier
      identifierPrefix: $identifierPrefix
      rule: $rule
      reason: $reason
      from: $from
      to: $to
      first: $first
    ) {
      entries {
        identifier
        outcome
        reason
        deniedBy
        shadowDenied
        candidatesDeniedBy
        retryAfterMs
        rules {
          name
          algorithm
          allowed
          limit
          remaining
          resetAt
          retryAfterMs
          quota
          windowMs
        }
        headers {
          name
          value
        }
      }
      pageInfo {
        hasNextPage
      }
    }
  }
`;

interface Entry {
  identifier: string;
  outcome: string;
  reason: string;
  deniedBy: string | null;
  shadowDenied: boolean;
  candidatesDeniedBy: string[];
  retryAfterMs: number | null;
  rules: Record<string, unknown>[];
  headers: { name: string; value: string }[];
}

let app: TestApp;
let tenantId: string;
let viewer: string;
/** A whole second, 10 minutes ago: inside the log's retention. */
const base = Math.floor((Date.now() - 600_000) / 1000) * 1000;

async function log(variables: Record<string, unknown>) {
  const response = await app.graphql<{ decisionLog: { entries: Entry[] } }>(
    LOG,
    { tenantId, policy: 'api', ...variables },
    { bearer: viewer },
  );
  return response;
}

async function identifiers(variables: Record<string, unknown>): Promise<string[]> {
  const response = await log(variables);
  expect(response.body.errors).toBeUndefined();
  return response.body.data!.decisionLog.entries.map((entry) => entry.identifier);
}

beforeAll(async () => {
  app = await startTestApp();
  tenantId = await createTenant(app.prisma);
  viewer = await tokenFor(app, 'tenant_viewer', tenantId);
});
afterEach(() => app.resetRedis());
afterAll(() => app?.close());

describe('decisionLog filters', () => {
  it('filters by identifier, prefix, rule, reason and time, all together', async () => {
    await recordUsage(app, [
      denial(tenantId, base, { identifier: 'org-1:alice', deniedBy: 'burst' }),
      denial(tenantId, base + 1000, { identifier: 'org-1:bob', deniedBy: 'per-day' }),
      denial(tenantId, base + 2000, { identifier: 'org-2:carol', deniedBy: 'burst' }),
      denial(tenantId, base + 3000, {
        identifier: 'org-1:alice',
        reason: 'suspended',
        deniedBy: undefined,
      }),
      decision(tenantId, base + 4000, { identifier: 'org-1:alice' }),
    ]);

    expect(await identifiers({})).toEqual([
      'org-1:alice',
      'org-1:alice',
      'org-2:carol',
      'org-1:bob',
      'org-1:alice',
    ]);
    expect(await identifiers({ identifier: 'org-1:alice' })).toHaveLength(3);
    expect(await identifiers({ identifier: 'org-1' })).toEqual([]);
    expect(await identifiers({ identifierPrefix: 'org-1:' })).toEqual([
      'org-1:alice',
      'org-1:alice',
      'org-1:bob',
      'org-1:alice',
    ]);
    expect(await identifiers({ rule: 'burst' })).toEqual(['org-2:carol', 'org-1:alice']);
    expect(await identifiers({ reason: 'suspended' })).toEqual(['org-1:alice']);
    expect(
      await identifiers({
        identifierPrefix: 'org-1:',
        from: new Date(base + 1000).toISOString(),
        to: new Date(base + 4000).toISOString(),
      }),
    ).toEqual(['org-1:alice', 'org-1:bob']);
  });

  it('names the field of a bad filter', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ rule: 'Not A Rule' }, 'rule'],
      [{ reason: 'nope' }, 'reason'],
      [{ identifier: '' }, 'identifier'],
      [{ identifierPrefix: 'x'.repeat(257) }, 'identifierPrefix'],
      [{ from: new Date(base).toISOString(), to: new Date(base - 1).toISOString() }, 'to'],
    ];
    for (const [variables, field] of cases) {
      expect(errorOf((await log(variables)).body)).toEqual({ code: 'BAD_USER_INPUT', field });
    }
  });
});

describe('decisionLog figures', () => {
  it("keeps each rule's figures and rebuilds the headers the caller received", async () => {
    const resetAt = base + 30_000;
    const rules = [
      {
        name: 'burst',
        algorithm: 'fixed_window',
        allowed: false,
        limit: 10,
        remaining: 0,
        resetAt,
        retryAfterMs: 29_500,
        quota: 10,
        windowMs: 60_000,
      },
      {
        name: 'per-day',
        algorithm: 'sliding_window_counter',
        allowed: true,
        limit: 1000,
        remaining: 400,
        resetAt: base + 86_400_000,
        retryAfterMs: 0,
        quota: 1000,
        windowMs: 86_400_000,
      },
    ];
    await recordUsage(app, [
      denial(tenantId, base, {
        identifier: 'org-1:alice',
        deniedBy: 'burst',
        candidateDenied: true,
        candidatesDeniedBy: ['next'],
        rules,
        answer: { limit: 10, remaining: 0, resetAt, retryAfterMs: 29_500 },
      }),
      // decided without Redis: no figures
      denial(tenantId, base + 10, { reason: 'fail-closed', deniedBy: undefined }),
    ]);

    const response = await log({});
    const [failClosed, denied] = response.body.data!.decisionLog.entries;
    expect(denied).toEqual({
      identifier: 'org-1:alice',
      outcome: 'DENIED',
      reason: 'rule',
      deniedBy: 'burst',
      shadowDenied: false,
      candidatesDeniedBy: ['next'],
      retryAfterMs: 29_500,
      rules: rules.map((rule) => ({ ...rule, resetAt: new Date(rule.resetAt).toISOString() })),
      headers: [
        { name: 'X-RateLimit-Limit', value: '10' },
        { name: 'X-RateLimit-Remaining', value: '0' },
        { name: 'X-RateLimit-Reset', value: String(Math.ceil(resetAt / 1000)) },
        { name: 'RateLimit-Policy', value: '"burst";q=10;w=60, "per-day";q=1000;w=86400' },
        { name: 'RateLimit', value: '"burst";r=0;t=30, "per-day";r=400;t=86400' },
        { name: 'Retry-After', value: '30' },
      ],
    });
    expect(failClosed).toMatchObject({ reason: 'fail-closed', rules: [], headers: [] });
  });
});
