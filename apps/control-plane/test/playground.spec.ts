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

// The playground fires checks through the data plane's own engine embedded in the control plane:
// the same decisions and headers as /v1/check, on scratch identifiers unless a real one is asked
// for, counted in the tenant's usage like a service's checks.

const RUN = /* GraphQL */ `
  mutation ($input: PlaygroundCheckInput!) {
    playgroundCheck(input: $input) {
      identifier
      realIdentifier
      allowed
      denied
      elapsedMs
      decisions {
        allowed
        reason
        deniedBy
        limit
        remaining
        retryAfterMs
        rules {
          name
          allowed
          remaining
        }
        headers {
          name
          value
        }
        status
        gatewayStatus
        problemDetail
      }
    }
  }
`;

const PEEK = /* GraphQL */ `
  query ($tenantId: ID!, $policy: String!, $identifier: String!, $realIdentifier: Boolean) {
    playgroundPeek(
      tenantId: $tenantId
      policy: $policy
      identifier: $identifier
      realIdentifier: $realIdentifier
    ) {
      allowed
      remaining
      rules {
        name
        remaining
      }
    }
  }
`;

const CREATE_POLICY = /* GraphQL */ `
  mutation ($t: ID!, $i: PolicySettingsInput!) {
    createPolicy(tenantId: $t, input: $i) {
      version
    }
  }
`;

const LOG = /* GraphQL */ `
  query ($tenantId: ID!, $identifier: String!) {
    decisionLog(tenantId: $tenantId, policy: "api", identifier: $identifier, outcome: DENIED) {
      entries {
        identifier
        deniedBy
      }
    }
  }
`;

interface Decision {
  allowed: boolean;
  reason: string;
  deniedBy: string | null;
  limit: number;
  remaining: number;
  retryAfterMs: number;
  rules: { name: string; allowed: boolean; remaining: number }[];
  headers: { name: string; value: string }[];
  status: number;
  gatewayStatus: number;
  problemDetail: string | null;
}

interface Run {
  identifier: string;
  realIdentifier: boolean;
  allowed: number;
  denied: number;
  elapsedMs: number;
  decisions: Decision[];
}

let app: TestApp;
let op: string;
let admin: string;
let viewer: string;
let tenantId: string;
let planId: string;
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
  const { createPolicy } = await gql<{ createPolicy: { version: number } }>(
    app,
    op,
    CREATE_POLICY,
    {
      t: tenantId,
      i: {
        name: 'slots',
        redisTimeoutMs: 1000,
        rules: [{ name: 'in-flight', algorithm: 'CONCURRENCY', limit: 2, leaseTtlMs: 3_600_000 }],
      },
    },
  );
  await published(app, tenantId, createPolicy.version);
  engine = await dataPlane(app);
});
afterAll(async () => {
  await engine?.stop();
  await app?.close();
});

const run = async (token: string, input: Record<string, unknown>) =>
  (await gql<{ playgroundCheck: Run }>(app, token, RUN, { input: { tenantId, ...input } }))
    .playgroundCheck;

const header = (decision: Decision, name: string) =>
  decision.headers.find((h) => h.name === name)?.value;

describe('playgroundCheck', () => {
  it('decides as /v1/check does, with its headers, on a scratch identifier that spends no real quota', async () => {
    const result = await run(admin, { policy: 'api', identifier: 'alice', count: 8 });

    expect(result).toMatchObject({
      identifier: 'playground:alice',
      realIdentifier: false,
      allowed: 5,
      denied: 3,
    });
    expect(result.decisions.map((d) => d.allowed)).toEqual([
      true,
      true,
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
    const [first] = result.decisions;
    const last = result.decisions[7]!;
    expect(first).toMatchObject({
      reason: 'allowed',
      remaining: 4,
      status: 200,
      gatewayStatus: 200,
    });
    expect(header(first!, 'X-RateLimit-Limit')).toBe('5');
    expect(header(first!, 'X-RateLimit-Remaining')).toBe('4');
    expect(header(first!, 'RateLimit-Policy')).toContain('"burst";q=5');
    expect(header(first!, 'Retry-After')).toBeUndefined();
    expect(last).toMatchObject({
      reason: 'rule',
      deniedBy: 'burst',
      status: 200,
      gatewayStatus: 429,
    });
    expect(Number(header(last, 'Retry-After'))).toBeGreaterThan(0);
    expect(last.problemDetail).toMatch(/^Rate limit of 5 requests per .* exceeded\. Retry after/);

    // the real identifier of the same name is untouched
    const real = await engine.check(secret, 'api', 'alice');
    expect(real).toMatchObject({ allowed: true, remaining: 4 });
  });

  it('spends the real identifier’s quota when asked; every run is audited', async () => {
    const result = await run(admin, {
      policy: 'api',
      identifier: 'bob',
      realIdentifier: true,
      count: 5,
      cost: 1,
    });
    expect(result).toMatchObject({ identifier: 'bob', realIdentifier: true, allowed: 5 });
    expect(await engine.check(secret, 'api', 'bob')).toMatchObject({
      allowed: false,
      deniedBy: 'burst',
    });
    const entries = await app.prisma.auditLog.findMany({
      where: { tenantId, action: 'playground.check' },
    });
    const entry = entries.find((e) => (e.after as { identifier?: string }).identifier === 'bob');
    expect(entry?.after).toMatchObject({
      policy: 'api',
      identifier: 'bob',
      realIdentifier: true,
      count: 5,
      allowed: 5,
    });
    // the first test's scratch run too
    expect(entries.map((e) => e.after)).toContainEqual(
      expect.objectContaining({ identifier: 'playground:alice', realIdentifier: false, denied: 3 }),
    );
  });

  it('a burst sends every check at once and admits exactly the capacity', async () => {
    const result = await run(op, { policy: 'api', identifier: 'burst', count: 20, mode: 'BURST' });
    expect(result).toMatchObject({ allowed: 5, denied: 15 });
  });

  it('holds a concurrency rule’s slots for the run, then releases them', async () => {
    const input = { policy: 'slots', identifier: 'carol', count: 5, mode: 'BURST' };
    expect(await run(admin, input)).toMatchObject({ allowed: 2, denied: 3 });
    expect(await run(admin, input)).toMatchObject({ allowed: 2, denied: 3 });
  });

  it('counts in the tenant’s request log like a service’s checks', async () => {
    await run(admin, { policy: 'api', identifier: 'dave', count: 7 });
    const entries = await eventually(
      'the denials logged',
      async () =>
        (
          await gql<{ decisionLog: { entries: { identifier: string; deniedBy: string }[] } }>(
            app,
            viewer,
            LOG,
            { tenantId, identifier: 'playground:dave' },
          )
        ).decisionLog.entries,
      (logged) => logged.length >= 2,
    );
    expect(entries).toEqual([
      { identifier: 'playground:dave', deniedBy: 'burst' },
      { identifier: 'playground:dave', deniedBy: 'burst' },
    ]);
  });

  it('refuses bad input field by field, unknown policies, viewers and strangers', async () => {
    expect(
      await gqlError(app, admin, RUN, {
        input: { tenantId, policy: 'api', identifier: 'x', count: 101 },
      }),
    ).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.count' });
    expect(
      await gqlError(app, admin, RUN, {
        input: { tenantId, policy: 'api', identifier: '', cost: -1 },
      }),
    ).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.identifier' });
    expect(
      await gqlError(app, admin, RUN, { input: { tenantId, policy: 'nope', identifier: 'x' } }),
    ).toMatchObject({ code: 'NOT_FOUND' });
    expect(
      await gqlError(app, viewer, RUN, { input: { tenantId, policy: 'api', identifier: 'x' } }),
    ).toMatchObject({ code: 'FORBIDDEN' });
    const stranger = await tokenFor(app, 'tenant_admin', await tenantOn(app, op, planId));
    expect(
      await gqlError(app, stranger, RUN, { input: { tenantId, policy: 'api', identifier: 'x' } }),
    ).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('runs one run at a time per user', async () => {
    const input = { tenantId, policy: 'api', identifier: 'eve', count: 100 };
    const responses = await Promise.all(
      Array.from({ length: 5 }, () => app.graphql(RUN, { input }, { bearer: admin })),
    );
    const codes = responses.map((r) => r.body.errors?.[0]?.extensions?.['code'] ?? 'ok');
    expect(codes).toContain('ok');
    expect(codes).toContain('TOO_MANY_REQUESTS');
    expect(
      codes.filter((code) => code !== 'ok').every((code) => code === 'TOO_MANY_REQUESTS'),
    ).toBe(true);
  });
});

describe('playgroundPeek', () => {
  it('reads an identifier’s state without spending it, for viewers too', async () => {
    await run(admin, { policy: 'api', identifier: 'frank', count: 3 });
    const peek = () =>
      gql<{ playgroundPeek: { remaining: number; rules: { name: string; remaining: number }[] } }>(
        app,
        viewer,
        PEEK,
        { tenantId, policy: 'api', identifier: 'frank' },
      );
    expect((await peek()).playgroundPeek).toMatchObject({
      remaining: 2,
      rules: [
        { name: 'burst', remaining: 2 },
        { name: 'daily', remaining: 997 },
      ],
    });
    expect((await peek()).playgroundPeek.remaining).toBe(2);
    const real = await gql<{ playgroundPeek: { remaining: number } }>(app, viewer, PEEK, {
      tenantId,
      policy: 'api',
      identifier: 'frank',
      realIdentifier: true,
    });
    expect(real.playgroundPeek.remaining).toBe(5);
  });
});

const COMPARE = /* GraphQL */ `
  query ($pattern: ArrivalPattern!, $limit: Int, $windowSeconds: Int) {
    algorithmComparison(pattern: $pattern, limit: $limit, windowSeconds: $windowSeconds) {
      bucketMs
      arrivals
      algorithms {
        algorithm
        admitted
        perBucket
        mostInAnyWindow
        mostInAnyWindowRatio
      }
    }
  }
`;

describe('algorithmComparison', () => {
  it('replays a spike around a window edge: the fixed window admits 2× its limit, the sliding log 1×', async () => {
    const { algorithmComparison } = await gql<{
      algorithmComparison: {
        bucketMs: number;
        arrivals: number[];
        algorithms: { algorithm: string; admitted: number; mostInAnyWindowRatio: number }[];
      };
    }>(app, viewer, COMPARE, { pattern: 'BOUNDARY_SPIKE', limit: 100, windowSeconds: 60 });
    const ratio = Object.fromEntries(
      algorithmComparison.algorithms.map((a) => [a.algorithm, a.mostInAnyWindowRatio]),
    );
    expect(Object.keys(ratio).sort()).toEqual([
      'fixed_window',
      'gcra',
      'leaky_bucket',
      'sliding_window_counter',
      'sliding_window_log',
      'token_bucket',
    ]);
    expect(ratio).toMatchObject({ fixed_window: 2, sliding_window_log: 1 });
    expect(algorithmComparison.bucketMs).toBe(6000);
    expect(algorithmComparison.arrivals.reduce((a, b) => a + b, 0)).toBe(200);
    // nothing left behind in Redis
    expect(await app.redis.redis.keys(`${app.redis.prefix}compare:*`)).toEqual([]);
  });

  it('refuses a limit or a window out of bounds by its argument', async () => {
    expect(await gqlError(app, viewer, COMPARE, { pattern: 'BURSTS', limit: 101 })).toMatchObject({
      code: 'BAD_USER_INPUT',
      field: 'limit',
    });
    expect(
      await gqlError(app, viewer, COMPARE, { pattern: 'BURSTS', windowSeconds: 0 }),
    ).toMatchObject({ code: 'BAD_USER_INPUT', field: 'windowSeconds' });
  });
});
