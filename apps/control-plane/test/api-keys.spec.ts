import { GraphQLSchemaHost } from '@nestjs/graphql';
import { newId } from '@sluice/db';
import { generateApiKeySecret, hashApiKey } from '@sluice/policy';
import { UsageRecorder } from '@sluice/usage';
import { type GraphQLFormattedError, isObjectType } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTenant,
  createUser,
  type GraphqlBody,
  loginWithBearer,
  startTestApp,
  type TestApp,
  type TestTenant,
} from './support/test-app';

const KEY = /* GraphQL */ `
  fragment Key on ApiKey {
    id
    tenantId
    name
    prefix
    policyNames
    scopes
    lastUsedAt
    expiresAt
    revokedAt
    createdAt
  }
`;
const CREATE = /* GraphQL */ `
  mutation Create($input: CreateApiKeyInput!) {
    createApiKey(input: $input) {
      secret
      apiKey {
        ...Key
      }
    }
  }
  ${KEY}
`;
const LIST = /* GraphQL */ `
  query Keys($tenantId: ID!, $filter: ApiKeyFilter, $first: Int, $after: String) {
    apiKeys(tenantId: $tenantId, filter: $filter, first: $first, after: $after) {
      totalCount
      pageInfo {
        hasNextPage
        endCursor
      }
      nodes {
        ...Key
      }
    }
  }
  ${KEY}
`;
const GET = `query Key($id: ID!) { apiKey(id: $id) { ...Key } } ${KEY}`;
const UPDATE = `mutation Update($input: UpdateApiKeyInput!) { updateApiKey(input: $input) { ...Key } } ${KEY}`;
const REVOKE = `mutation Revoke($id: ID!) { revokeApiKey(id: $id) { ...Key } } ${KEY}`;
const ROTATE = `mutation Rotate($id: ID!) { rotateApiKey(id: $id) { secret apiKey { ...Key } } } ${KEY}`;

interface Key {
  id: string;
  tenantId: string;
  name: string;
  prefix: string;
  policyNames: string[];
  scopes: string[];
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
  createdAt: string;
}
interface Page {
  totalCount: number;
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
  nodes: Key[];
}

let app: TestApp;
let tenantA: TestTenant;
let tenantB: TestTenant;
const tokens: Record<'operator' | 'adminA' | 'viewerA' | 'adminB', string> = {
  operator: '',
  adminA: '',
  viewerA: '',
  adminB: '',
};
const ids: Record<keyof typeof tokens, string> = { ...tokens };

beforeAll(async () => {
  app = await startTestApp({ CONTROL_PLANE_LOGIN_IP_LIMIT: '1000' });
  tenantA = await createTenant(app.prisma, { name: 'Acme' });
  tenantB = await createTenant(app.prisma, { name: 'Bolt' });
  const users = {
    operator: await createUser(app.prisma),
    adminA: await createUser(app.prisma, {
      memberships: [{ role: 'tenant_admin', tenantId: tenantA.id }],
    }),
    viewerA: await createUser(app.prisma, {
      memberships: [{ role: 'tenant_viewer', tenantId: tenantA.id }],
    }),
    adminB: await createUser(app.prisma, {
      memberships: [{ role: 'tenant_admin', tenantId: tenantB.id }],
    }),
  };
  for (const role of Object.keys(tokens) as (keyof typeof tokens)[]) {
    tokens[role] = await loginWithBearer(app, users[role]);
    ids[role] = users[role].id;
  }
});
afterAll(() => app?.close());

/** The answer's data, failing the test with its errors if there are any. */
function dataOf<T>(body: GraphqlBody<T>): T {
  expect(body.errors).toBeUndefined();
  return body.data!;
}

function errorOf(body: GraphqlBody<unknown>): GraphQLFormattedError {
  expect(body.errors).toHaveLength(1);
  return body.errors![0]!;
}

function as(role: keyof typeof tokens) {
  return { bearer: tokens[role] };
}

async function create(input: Record<string, unknown>, role: keyof typeof tokens = 'adminA') {
  const response = await app.graphql<{ createApiKey: { secret: string; apiKey: Key } }>(
    CREATE,
    { input: { tenantId: tenantA.id, name: 'ingest', ...input } },
    as(role),
  );
  return dataOf(response.body).createApiKey;
}

/** A key written straight to the database (for checks that must not go through the API). */
async function insertKey(tenantId: string, data: { expiresAt?: Date } = {}) {
  const secret = generateApiKeySecret();
  return app.prisma.apiKey.create({
    data: {
      id: newId('apiKey'),
      tenantId,
      name: 'inserted',
      prefix: secret.slice(0, 12),
      hash: hashApiKey(secret),
      scopes: ['check'],
      ...data,
    },
  });
}

/** Audit and outbox rows of a tenant, to compare before and after a mutation. */
async function trail(tenantId: string) {
  const [audit, outbox] = await Promise.all([
    app.prisma.auditLog.count({ where: { tenantId } }),
    app.prisma.outboxEvent.count({ where: { tenantId } }),
  ]);
  return { audit, outbox };
}

describe('createApiKey', () => {
  it('shows the secret once and stores only its SHA-256', async () => {
    const { secret, apiKey } = await create({ name: '  ingest  ' });

    expect(secret).toMatch(/^sk_live_[0-9A-Za-z]{32}$/);
    expect(apiKey).toMatchObject({
      tenantId: tenantA.id,
      name: 'ingest',
      prefix: secret.slice(0, 12),
      policyNames: [],
      scopes: ['CHECK'],
      lastUsedAt: null,
      expiresAt: null,
      revokedAt: null,
    });
    expect(apiKey.prefix).toMatch(/^sk_live_[0-9A-Za-z]{4}$/);
    const row = await app.prisma.apiKey.findUniqueOrThrow({ where: { id: apiKey.id } });
    expect(row.hash).toBe(hashApiKey(secret));
    expect(JSON.stringify(row)).not.toContain(secret);

    // the secret is nowhere to be read again, and the type has no field for it or the hash
    const again = await app.graphql<{ apiKey: Key }>(GET, { id: apiKey.id }, as('adminA'));
    expect(dataOf(again.body).apiKey).toEqual(apiKey);
    expect(JSON.stringify(again.body)).not.toContain(secret.slice(12));
    const type = app.app.get(GraphQLSchemaHost).schema.getType('ApiKey');
    expect(isObjectType(type) && Object.keys(type.getFields()).sort()).toEqual([
      'createdAt',
      'expiresAt',
      'id',
      'lastUsedAt',
      'name',
      'policyNames',
      'prefix',
      'revokedAt',
      'scopes',
      'tenantId',
    ]);
  });

  it('takes policies, scopes and an expiry, and audits the creation with an outbox event', async () => {
    const before = await trail(tenantA.id);
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();

    const { secret, apiKey } = await create(
      { policyNames: ['api', 'llm-tokens'], scopes: ['CHECK', 'ADMIN'], expiresAt },
      'operator',
    );

    expect(apiKey).toMatchObject({
      policyNames: ['api', 'llm-tokens'],
      scopes: ['CHECK', 'ADMIN'],
      expiresAt,
    });
    expect(await trail(tenantA.id)).toEqual({
      audit: before.audit + 1,
      outbox: before.outbox + 1,
    });
    const audit = await app.prisma.auditLog.findFirstOrThrow({
      where: { action: 'api_key.create', entityId: apiKey.id },
    });
    expect(audit).toMatchObject({
      actorType: 'user',
      actorId: ids.operator,
      tenantId: tenantA.id,
      entityType: 'ApiKey',
      before: null,
      after: {
        name: 'ingest',
        prefix: apiKey.prefix,
        policyNames: ['api', 'llm-tokens'],
        scopes: ['check', 'admin'],
        expiresAt,
        revokedAt: null,
      },
    });
    const row = await app.prisma.apiKey.findUniqueOrThrow({ where: { id: apiKey.id } });
    expect(JSON.stringify([audit.before, audit.after])).not.toContain(row.hash);
    expect(JSON.stringify([audit.before, audit.after])).not.toContain(secret);
    const outbox = await app.prisma.outboxEvent.findFirstOrThrow({
      where: { tenantId: tenantA.id },
      orderBy: { id: 'desc' },
    });
    // not whether it is processed yet: the relay's next pass (every second) may have published it
    expect(outbox).toMatchObject({ kind: 'tenant' });
  });
});

describe('validation', () => {
  it.each([
    [{ name: '   ' }, 'input.name', 'is required'],
    [{ name: 'x'.repeat(101) }, 'input.name', 'must be at most 100 characters'],
    [{ policyNames: ['api', 'Bad Name'] }, 'input.policyNames.1', 'must match'],
    [{ policyNames: ['api', 'api'] }, 'input.policyNames', 'names a policy twice'],
    [{ scopes: [] }, 'input.scopes', 'must have at least one scope'],
    [{ scopes: ['CHECK', 'CHECK'] }, 'input.scopes', 'names a scope twice'],
    [{ expiresAt: new Date(Date.now() - 1000).toISOString() }, 'input.expiresAt', 'future'],
  ])('refuses %j naming %s, and writes nothing', async (input, field, message) => {
    const before = await trail(tenantA.id);
    const keys = await app.prisma.apiKey.count();

    const response = await app.graphql(
      CREATE,
      { input: { tenantId: tenantA.id, name: 'ok', ...input } },
      as('adminA'),
    );

    expect(errorOf(response.body)).toMatchObject({
      message: expect.stringContaining(message),
      extensions: { code: 'BAD_USER_INPUT', field },
    });
    expect(await app.prisma.apiKey.count()).toBe(keys);
    expect(await trail(tenantA.id)).toEqual(before);
  });

  it('refuses an unknown scope before any resolver runs', async () => {
    const response = await app.graphql(
      CREATE,
      { input: { tenantId: tenantA.id, name: 'ok', scopes: ['SUPERUSER'] } },
      as('adminA'),
    );

    expect(errorOf(response.body)).toMatchObject({
      message: expect.stringMatching(/input\.scopes.*ApiKeyScope/),
      extensions: { code: 'BAD_USER_INPUT' },
    });
  });

  it.each([
    [{ name: null }, 'input.name', 'cannot be null'],
    [{ scopes: null }, 'input.scopes', 'cannot be null'],
    [{ policyNames: ['-api'] }, 'input.policyNames.0', 'must match'],
    [{ expiresAt: '2001-01-01T00:00:00Z' }, 'input.expiresAt', 'must be in the future'],
  ])('refuses the update %j naming %s', async (input, field, message) => {
    const { apiKey } = await create({});

    const response = await app.graphql(
      UPDATE,
      { input: { id: apiKey.id, ...input } },
      as('adminA'),
    );

    expect(errorOf(response.body)).toMatchObject({
      message: expect.stringContaining(message),
      extensions: { code: 'BAD_USER_INPUT', field },
    });
  });

  it('names the list arguments it refuses', async () => {
    const long = await app.graphql(
      LIST,
      { tenantId: tenantA.id, filter: { search: 'x'.repeat(101) } },
      as('adminA'),
    );
    const first = await app.graphql(LIST, { tenantId: tenantA.id, first: 0 }, as('adminA'));

    expect(errorOf(long.body).extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      field: 'filter.search',
    });
    expect(errorOf(first.body).extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      field: 'first',
    });
  });
});

describe('apiKeys', () => {
  it('pages through a tenant’s keys, newest first, with filters', async () => {
    const tenant = await createTenant(app.prisma);
    const made: Key[] = [];
    for (const name of ['alpha', 'beta', 'gamma']) {
      made.push((await create({ tenantId: tenant.id, name }, 'operator')).apiKey);
    }
    const other = await create({ name: 'not this tenant' }, 'operator');
    await app.graphql(REVOKE, { id: made[1]!.id }, as('operator'));

    const first = await app.graphql<{ apiKeys: Page }>(
      LIST,
      { tenantId: tenant.id, first: 2 },
      as('operator'),
    );
    const page1 = dataOf(first.body).apiKeys;
    expect(page1.totalCount).toBe(3);
    expect(page1.pageInfo.hasNextPage).toBe(true);
    expect(page1.nodes.map((key) => key.name)).toEqual(['gamma', 'beta']);
    const second = await app.graphql<{ apiKeys: Page }>(
      LIST,
      { tenantId: tenant.id, first: 2, after: page1.pageInfo.endCursor },
      as('operator'),
    );
    expect(dataOf(second.body).apiKeys.nodes.map((key) => key.name)).toEqual(['alpha']);
    expect(dataOf(second.body).apiKeys.pageInfo.hasNextPage).toBe(false);

    const names = async (filter: Record<string, unknown>) => {
      const response = await app.graphql<{ apiKeys: Page }>(
        LIST,
        { tenantId: tenant.id, filter },
        as('operator'),
      );
      return dataOf(response.body).apiKeys.nodes.map((key) => key.name);
    };
    expect(await names({ revoked: true })).toEqual(['beta']);
    expect(await names({ revoked: false })).toEqual(['gamma', 'alpha']);
    // alpha's expiry passes: expired, not active; a revoked key is REVOKED whatever its expiry
    await app.prisma.apiKey.update({
      where: { id: made[0]!.id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    await app.prisma.apiKey.update({
      where: { id: made[1]!.id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    expect(await names({ status: 'ACTIVE' })).toEqual(['gamma']);
    expect(await names({ status: 'EXPIRED' })).toEqual(['alpha']);
    expect(await names({ status: 'REVOKED' })).toEqual(['beta']);
    expect(await names({ status: 'ACTIVE', search: 'ALP' })).toEqual([]);
    expect(await names({ search: 'AMM' })).toEqual(['gamma']);
    expect(await names({ search: made[0]!.prefix })).toEqual(['alpha']);
    expect(await names({ search: other.apiKey.prefix })).toEqual([]);
  });

  it('shows the newer of the stored last use and the data plane’s record in Redis', async () => {
    const tenant = await createTenant(app.prisma);
    const stored = new Date(Date.now() - 3_600_000);
    const recorded = Date.now() - 60_000;
    const fresher = (await create({ tenantId: tenant.id, name: 'fresher in redis' }, 'operator'))
      .apiKey;
    const older = (await create({ tenantId: tenant.id, name: 'older in redis' }, 'operator'))
      .apiKey;
    const unused = (await create({ tenantId: tenant.id, name: 'unused' }, 'operator')).apiKey;
    await app.prisma.apiKey.updateMany({
      where: { id: { in: [fresher.id, older.id] } },
      data: { lastUsedAt: stored },
    });
    // the data plane's own writer of key uses
    const usage = new UsageRecorder({ redis: app.redis.redis, prefix: app.redis.prefix });
    const use = (keyId: string, at: number) =>
      usage.record({
        tenantId: tenant.id,
        policy: 'api',
        keyId,
        at,
        identifier: 'user-1',
        allowed: true,
        reason: 'allowed',
        cost: 1,
        shadowDenied: false,
        candidateDenied: false,
      });
    use(fresher.id, recorded);
    use(older.id, stored.getTime() - 60_000);
    await usage.flush();

    const response = await app.graphql<{ apiKeys: Page }>(
      LIST,
      { tenantId: tenant.id },
      as('operator'),
    );

    const lastUsed = Object.fromEntries(
      dataOf(response.body).apiKeys.nodes.map((key) => [key.id, key.lastUsedAt]),
    );
    expect(lastUsed).toEqual({
      [fresher.id]: new Date(recorded).toISOString(),
      [older.id]: stored.toISOString(),
      [unused.id]: null,
    });
    const one = await app.graphql<{ apiKey: Key }>(GET, { id: fresher.id }, as('operator'));
    expect(dataOf(one.body).apiKey.lastUsedAt).toBe(new Date(recorded).toISOString());
  });
});

describe('updateApiKey', () => {
  it('changes only the given fields, null clearing the expiry, audited before/after', async () => {
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const { secret, apiKey } = await create({ policyNames: ['api'], expiresAt });
    const before = await trail(tenantA.id);

    const renamed = await app.graphql<{ updateApiKey: Key }>(
      UPDATE,
      { input: { id: apiKey.id, name: 'renamed', scopes: ['ADMIN'] } },
      as('adminA'),
    );
    expect(dataOf(renamed.body).updateApiKey).toEqual({
      ...apiKey,
      name: 'renamed',
      scopes: ['ADMIN'],
    });
    const cleared = await app.graphql<{ updateApiKey: Key }>(
      UPDATE,
      { input: { id: apiKey.id, policyNames: [], expiresAt: null } },
      as('adminA'),
    );
    expect(dataOf(cleared.body).updateApiKey).toMatchObject({
      name: 'renamed',
      policyNames: [],
      expiresAt: null,
    });

    expect(await trail(tenantA.id)).toEqual({
      audit: before.audit + 2,
      outbox: before.outbox + 2,
    });
    const audits = await app.prisma.auditLog.findMany({
      where: { action: 'api_key.update', entityId: apiKey.id },
      orderBy: { id: 'asc' },
    });
    expect(audits.map((a) => [a.actorId, a.before, a.after])).toEqual([
      [
        ids.adminA,
        expect.objectContaining({ name: 'ingest', scopes: ['check'] }),
        expect.objectContaining({ name: 'renamed', scopes: ['admin'] }),
      ],
      [
        ids.adminA,
        expect.objectContaining({ policyNames: ['api'], expiresAt }),
        expect.objectContaining({ policyNames: [], expiresAt: null }),
      ],
    ]);
    // the secret stays
    const row = await app.prisma.apiKey.findUniqueOrThrow({ where: { id: apiKey.id } });
    expect(row.hash).toBe(hashApiKey(secret));
  });
});

describe('revokeApiKey', () => {
  it('sets revokedAt once; revoking again changes and writes nothing', async () => {
    const { apiKey } = await create({});
    const before = await trail(tenantA.id);

    const first = await app.graphql<{ revokeApiKey: Key }>(REVOKE, { id: apiKey.id }, as('adminA'));
    const revoked = dataOf(first.body).revokeApiKey;
    expect(revoked.revokedAt).not.toBeNull();
    const second = await app.graphql<{ revokeApiKey: Key }>(
      REVOKE,
      { id: apiKey.id },
      as('adminA'),
    );
    expect(dataOf(second.body).revokeApiKey).toEqual(revoked);

    expect(await trail(tenantA.id)).toEqual({
      audit: before.audit + 1,
      outbox: before.outbox + 1,
    });
    expect(
      await app.prisma.auditLog.findFirstOrThrow({
        where: { action: 'api_key.revoke', entityId: apiKey.id },
      }),
    ).toMatchObject({
      actorId: ids.adminA,
      before: expect.objectContaining({ revokedAt: null }),
      after: expect.objectContaining({ revokedAt: revoked.revokedAt }),
    });
  });

  it('leaves a revoked key unchangeable (CONFLICT) and unrotatable', async () => {
    const { apiKey } = await create({});
    await app.graphql(REVOKE, { id: apiKey.id }, as('adminA'));
    const before = await trail(tenantA.id);

    const update = await app.graphql(UPDATE, { input: { id: apiKey.id, name: 'x' } }, as('adminA'));
    const rotate = await app.graphql(ROTATE, { id: apiKey.id }, as('adminA'));

    expect(errorOf(update.body).extensions).toMatchObject({ code: 'CONFLICT', field: 'input.id' });
    expect(errorOf(rotate.body).extensions).toMatchObject({ code: 'CONFLICT', field: 'id' });
    expect(await trail(tenantA.id)).toEqual(before);
  });
});

describe('rotateApiKey', () => {
  it('issues a new secret with the same settings and revokes the old key at once', async () => {
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const old = await create({ policyNames: ['api'], scopes: ['CHECK', 'ADMIN'], expiresAt });
    const before = await trail(tenantA.id);

    const response = await app.graphql<{ rotateApiKey: { secret: string; apiKey: Key } }>(
      ROTATE,
      { id: old.apiKey.id },
      as('adminA'),
    );

    const { secret, apiKey } = dataOf(response.body).rotateApiKey;
    expect(secret).toMatch(/^sk_live_[0-9A-Za-z]{32}$/);
    expect(secret).not.toBe(old.secret);
    expect(apiKey).toMatchObject({
      tenantId: tenantA.id,
      name: 'ingest',
      prefix: secret.slice(0, 12),
      policyNames: ['api'],
      scopes: ['CHECK', 'ADMIN'],
      expiresAt,
      revokedAt: null,
    });
    expect(apiKey.id).not.toBe(old.apiKey.id);
    const [oldRow, newRow] = await Promise.all([
      app.prisma.apiKey.findUniqueOrThrow({ where: { id: old.apiKey.id } }),
      app.prisma.apiKey.findUniqueOrThrow({ where: { id: apiKey.id } }),
    ]);
    expect(oldRow.revokedAt).not.toBeNull();
    expect(newRow.hash).toBe(hashApiKey(secret));

    expect(await trail(tenantA.id)).toEqual({
      audit: before.audit + 2,
      outbox: before.outbox + 1,
    });
    expect(
      await app.prisma.auditLog.findFirstOrThrow({
        where: { action: 'api_key.rotate', entityId: old.apiKey.id },
      }),
    ).toMatchObject({
      actorId: ids.adminA,
      before: expect.objectContaining({ revokedAt: null }),
      after: expect.objectContaining({
        revokedAt: oldRow.revokedAt!.toISOString(),
        replacedById: apiKey.id,
      }),
    });
    expect(
      await app.prisma.auditLog.findFirstOrThrow({
        where: { action: 'api_key.create', entityId: apiKey.id },
      }),
    ).toMatchObject({
      actorId: ids.adminA,
      after: expect.objectContaining({ rotatedFromId: old.apiKey.id, prefix: apiKey.prefix }),
    });
  });

  it('refuses an expired key (CONFLICT)', async () => {
    const expired = await insertKey(tenantA.id, { expiresAt: new Date(Date.now() - 1000) });

    const response = await app.graphql(ROTATE, { id: expired.id }, as('adminA'));

    expect(errorOf(response.body)).toMatchObject({
      message: expect.stringContaining('expired'),
      extensions: { code: 'CONFLICT', field: 'id' },
    });
    const row = await app.prisma.apiKey.findUniqueOrThrow({ where: { id: expired.id } });
    expect(row.revokedAt).toBeNull();
    expect(await app.prisma.auditLog.count({ where: { entityId: expired.id } })).toBe(0);
  });
});

describe('access', () => {
  type Role = keyof typeof tokens | 'anonymous';
  const outcome = (role: Role, kind: 'read' | 'write'): string | undefined => {
    if (role === 'anonymous') return 'UNAUTHENTICATED';
    if (role === 'adminB') return 'NOT_FOUND';
    if (role === 'viewerA' && kind === 'write') return 'FORBIDDEN';
    return undefined;
  };
  const credentials = (role: Role) => (role === 'anonymous' ? {} : as(role));
  const roles: Role[] = ['operator', 'adminA', 'viewerA', 'adminB', 'anonymous'];

  it.each(roles)('%s: reading tenant A’s keys', async (role) => {
    const key = await insertKey(tenantA.id);

    const list = await app.graphql<{ apiKeys: Page }>(
      LIST,
      { tenantId: tenantA.id },
      credentials(role),
    );
    const one = await app.graphql(GET, { id: key.id }, credentials(role));

    const expected = outcome(role, 'read');
    if (expected === undefined) {
      expect(dataOf(list.body).apiKeys.nodes.map((k) => k.id)).toContain(key.id);
      expect(dataOf(one.body)).toMatchObject({ apiKey: { id: key.id } });
    } else {
      expect(errorOf(list.body).extensions?.['code']).toBe(expected);
      expect(errorOf(one.body).extensions?.['code']).toBe(expected);
    }
  });

  it.each(roles)('%s: changing tenant A’s keys', async (role) => {
    const key = await insertKey(tenantA.id);
    const before = await trail(tenantA.id);
    const expected = outcome(role, 'write');

    const answers = [
      await app.graphql(CREATE, { input: { tenantId: tenantA.id, name: role } }, credentials(role)),
      await app.graphql(UPDATE, { input: { id: key.id, name: 'taken over' } }, credentials(role)),
      await app.graphql(ROTATE, { id: key.id }, credentials(role)),
    ];
    // after the rotation the key is revoked already: revoke a fresh one
    const other = await insertKey(tenantA.id);
    answers.push(await app.graphql(REVOKE, { id: other.id }, credentials(role)));

    if (expected === undefined) {
      for (const answer of answers) expect(answer.body.errors).toBeUndefined();
      expect(await trail(tenantA.id)).toEqual({
        audit: before.audit + 5,
        outbox: before.outbox + 4,
      });
    } else {
      for (const answer of answers)
        expect(errorOf(answer.body).extensions?.['code']).toBe(expected);
      expect(await trail(tenantA.id)).toEqual(before);
      const rows = await app.prisma.apiKey.findMany({ where: { id: { in: [key.id, other.id] } } });
      expect(rows.map((row) => [row.name, row.revokedAt])).toEqual([
        ['inserted', null],
        ['inserted', null],
      ]);
      expect(await app.prisma.apiKey.count({ where: { name: role } })).toBe(0);
    }
  });

  it('answers a tenant that does not exist as NOT_FOUND, even to operators', async () => {
    const list = await app.graphql(LIST, { tenantId: 'tnt_missing' }, as('operator'));
    const create = await app.graphql(
      CREATE,
      { input: { tenantId: 'tnt_missing', name: 'x' } },
      as('operator'),
    );
    const revoke = await app.graphql(REVOKE, { id: 'key_missing' }, as('operator'));

    for (const answer of [list, create, revoke]) {
      expect(errorOf(answer.body).extensions?.['code']).toBe('NOT_FOUND');
    }
  });
});

describe('one transaction per mutation', () => {
  it('leaves no key, audit entry or outbox event when a later write fails', async () => {
    const tenant = await createTenant(app.prisma);
    const key = await insertKey(tenant.id);
    // the outbox insert, the last write of each mutation, fails for this tenant only
    await app.prisma.$executeRawUnsafe(`
      CREATE FUNCTION refuse_outbox_${tenant.id}() RETURNS trigger AS $$
      BEGIN
        IF NEW."tenantId" = '${tenant.id}' THEN RAISE EXCEPTION 'outbox refused'; END IF;
        RETURN NEW;
      END $$ LANGUAGE plpgsql`);
    await app.prisma.$executeRawUnsafe(`
      CREATE TRIGGER refuse_outbox_${tenant.id} BEFORE INSERT ON "OutboxEvent"
      FOR EACH ROW EXECUTE FUNCTION refuse_outbox_${tenant.id}()`);
    try {
      const answers = [
        await app.graphql(CREATE, { input: { tenantId: tenant.id, name: 'x' } }, as('operator')),
        await app.graphql(UPDATE, { input: { id: key.id, name: 'renamed' } }, as('operator')),
        await app.graphql(REVOKE, { id: key.id }, as('operator')),
        await app.graphql(ROTATE, { id: key.id }, as('operator')),
      ];

      for (const answer of answers) {
        expect(errorOf(answer.body)).toMatchObject({
          message: 'Internal server error.',
          extensions: { code: 'INTERNAL_SERVER_ERROR' },
        });
      }
      const rows = await app.prisma.apiKey.findMany({ where: { tenantId: tenant.id } });
      expect(rows.map((row) => [row.id, row.name, row.revokedAt])).toEqual([
        [key.id, 'inserted', null],
      ]);
      expect(await trail(tenant.id)).toEqual({ audit: 0, outbox: 0 });
    } finally {
      await app.prisma.$executeRawUnsafe(
        `DROP TRIGGER refuse_outbox_${tenant.id} ON "OutboxEvent"`,
      );
    }
  });
});
