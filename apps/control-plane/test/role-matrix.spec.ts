import { GraphQLSchemaHost } from '@nestjs/graphql';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiKeyRow,
  gql,
  operator,
  planWithApi,
  published,
  slug,
  tenantOn,
} from './support/policies';
import {
  createUser,
  loginWithBearer,
  startTestApp,
  type TestApp,
  type TestUser,
} from './support/test-app';

// Every query and mutation of the schema against every role: who is let through and who is
// refused. A resolver added without a row here fails the completeness test, so nothing ships
// unguarded by accident. "Refused" is UNAUTHENTICATED (no session), FORBIDDEN or NOT_FOUND (a
// tenant the caller may not read answers as missing); anything else — data, or an error about the
// input — means the caller got past the access checks. A mutation that went through must have
// written an audit entry.

type Role = 'anonymous' | 'operator' | 'admin' | 'viewer' | 'outsider';
const ROLES: Role[] = ['anonymous', 'operator', 'admin', 'viewer', 'outsider'];
const REFUSALS = new Set(['UNAUTHENTICATED', 'FORBIDDEN', 'NOT_FOUND']);

const EVERYONE: Role[] = ROLES;
const SIGNED_IN: Role[] = ['operator', 'admin', 'viewer', 'outsider'];
const READERS: Role[] = ['operator', 'admin', 'viewer'];
const WRITERS: Role[] = ['operator', 'admin'];
const OPERATORS: Role[] = ['operator'];

interface World {
  planId: string;
  policyId: string;
  /** The tenant whose admin, viewer and members the roles are. */
  tenantId: string;
  operatorToken: string;
}

interface Probe {
  query: string;
  /** Variables for one run; may create what the run needs (a fresh key, tenant, …). */
  variables?: (world: World, role: Role) => Promise<Record<string, unknown>>;
  allowed: Role[];
}

let app: TestApp;
let world: World;
const tokens = new Map<Role, string | undefined>();
const users = new Map<Role, TestUser>();

async function keyOf(tenantId: string): Promise<string> {
  return (await apiKeyRow(app, tenantId)).id;
}

async function endpoint(tenantId: string): Promise<string> {
  const { createWebhookEndpoint } = await gql<{
    createWebhookEndpoint: { endpoint: { id: string } };
  }>(
    app,
    world.operatorToken,
    `mutation ($i: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $i) { endpoint { id } } }`,
    { i: endpointInput(tenantId) },
  );
  return createWebhookEndpoint.endpoint.id;
}

const endpointInput = (tenantId: string) => ({
  tenantId,
  name: `e${Math.random().toString(36).slice(2, 8)}`,
  url: 'http://127.0.0.1:9/hooks',
  leakRatePerSec: 1,
  queueCapacity: 10,
});

async function ownPolicy(tenantId: string): Promise<string> {
  const { createPolicy } = await gql<{ createPolicy: { policy: { id: string } } }>(
    app,
    world.operatorToken,
    `mutation ($t: ID!, $i: PolicySettingsInput!) { createPolicy(tenantId: $t, input: $i) { policy { id } } }`,
    {
      t: tenantId,
      i: {
        name: `p${Math.random().toString(36).slice(2, 8)}`,
        rules: [{ name: 'r', algorithm: 'TOKEN_BUCKET', capacity: 5, refillPerSecond: 1 }],
      },
    },
  );
  return createPolicy.policy.id;
}

const candidate = {
  name: 'r-next',
  replaces: 'r',
  algorithm: 'TOKEN_BUCKET',
  capacity: 3,
  refillPerSecond: 1,
};

/** One of the tenant's own policies with a proposal running in shadow. */
async function triedPolicy(tenantId: string): Promise<string> {
  const id = await ownPolicy(tenantId);
  await gql(
    app,
    world.operatorToken,
    `mutation ($i: TryCandidateRulesInput!) { tryCandidateRules(input: $i) { tenantsRepublished } }`,
    { i: { policyId: id, candidateRules: [candidate] } },
  );
  return id;
}

const TRY_PLAN_POLICY = `mutation ($i: TryPlanPolicyCandidatesInput!) { tryPlanPolicyCandidates(input: $i) { version } }`;
/** The tenant's proposal for the plan's `api` (its burst's capacity is the tenants' to set). */
const planPolicyProposal = (tenantId: string) => ({
  i: {
    tenantId,
    policy: 'api',
    candidateRules: [
      { name: 'burst-next', replaces: 'burst', algorithm: 'TOKEN_BUCKET', capacity: 4 },
    ],
  },
});

/** The tenant's candidates for the plan's `api`, running in shadow; the tenant's id. */
async function triedPlanPolicy(tenantId: string): Promise<string> {
  await gql(app, world.operatorToken, TRY_PLAN_POLICY, planPolicyProposal(tenantId));
  return tenantId;
}

async function override(tenantId: string): Promise<string> {
  const { createOverride } = await gql<{ createOverride: { override: { id: string } } }>(
    app,
    world.operatorToken,
    `mutation ($i: CreateOverrideInput!) { createOverride(input: $i) { override { id } } }`,
    {
      i: {
        tenantId,
        policy: 'api',
        identifier: `id-${Math.random().toString(36).slice(2, 8)}`,
        rules: [{ name: 'burst', capacity: 9 }],
      },
    },
  );
  return createOverride.override.id;
}

const freshTenant = () => tenantOn(app, world.operatorToken, world.planId);
const policySettings = {
  name: 'tpl',
  rules: [{ name: 'r', algorithm: 'TOKEN_BUCKET', capacity: 5, refillPerSecond: 1 }],
};
const hour = () => ({
  from: new Date(Date.now() - 3_600_000).toISOString(),
  to: new Date().toISOString(),
});

const PROBES: Record<string, Probe> = {
  // auth and the signed-in user
  login: {
    query: `mutation ($i: LoginInput!) { login(input: $i) { user { id } } }`,
    variables: async () => {
      const user = await createUser(app.prisma, { memberships: [{ role: 'operator' }] });
      return { i: { email: user.email, password: user.password, transport: 'BEARER' } };
    },
    allowed: EVERYONE,
  },
  logout: { query: `mutation { logout }`, allowed: SIGNED_IN },
  me: { query: `{ me { id } }`, allowed: SIGNED_IN },
  changePassword: {
    // a wrong current password: refused on the input once through the access checks
    query: `mutation { changePassword(input: { currentPassword: "not-the-password", newPassword: "a brand new password" }) }`,
    allowed: SIGNED_IN,
  },
  requestPasswordReset: {
    query: `mutation { requestPasswordReset(email: "nobody@example.com") }`,
    allowed: EVERYONE,
  },
  resetPassword: {
    query: `mutation { resetPassword(input: { token: "not-a-token", password: "a brand new password" }) }`,
    allowed: EVERYONE,
  },
  // members
  members: {
    query: `query ($t: ID!) { members(tenantId: $t) { totalCount } }`,
    variables: async (w) => ({ t: w.tenantId }),
    allowed: READERS,
  },
  operators: { query: `{ operators { totalCount } }`, allowed: OPERATORS },
  users: { query: `{ users { totalCount } }`, allowed: OPERATORS },
  invitations: {
    query: `query ($t: ID) { invitations(tenantId: $t) { totalCount } }`,
    variables: async (w) => ({ t: w.tenantId }),
    allowed: READERS,
  },
  invitationPreview: {
    query: `{ invitationPreview(token: "not-a-token") { email } }`,
    allowed: EVERYONE,
  },
  inviteMember: {
    query: `mutation ($i: InviteMemberInput!) { inviteMember(input: $i) { id } }`,
    variables: async (w) => ({
      i: { email: `${slug('invitee')}@example.com`, role: 'TENANT_VIEWER', tenantId: w.tenantId },
    }),
    allowed: WRITERS,
  },
  revokeInvitation: {
    query: `mutation ($id: ID!) { revokeInvitation(id: $id) }`,
    variables: async (w) => {
      const { inviteMember } = await gql<{ inviteMember: { id: string } }>(
        app,
        w.operatorToken,
        `mutation ($i: InviteMemberInput!) { inviteMember(input: $i) { id } }`,
        {
          i: { email: `${slug('r')}@example.com`, role: 'TENANT_VIEWER', tenantId: w.tenantId },
        },
      );
      return { id: inviteMember.id };
    },
    allowed: WRITERS,
  },
  acceptInvitation: {
    query: `mutation { acceptInvitation(input: { token: "not-a-token", name: "N", password: "a brand new password" }) { user { id } } }`,
    allowed: EVERYONE,
  },
  changeMemberRole: {
    query: `mutation ($i: ChangeMemberRoleInput!) { changeMemberRole(input: $i) { role } }`,
    variables: async (w) => {
      const member = await createUser(app.prisma, {
        memberships: [{ role: 'tenant_viewer', tenantId: w.tenantId }],
      });
      return { i: { userId: member.id, tenantId: w.tenantId, role: 'TENANT_ADMIN' } };
    },
    allowed: WRITERS,
  },
  removeMember: {
    query: `mutation ($u: ID!, $t: ID) { removeMember(userId: $u, tenantId: $t) }`,
    variables: async (w) => {
      const member = await createUser(app.prisma, {
        memberships: [{ role: 'tenant_viewer', tenantId: w.tenantId }],
      });
      return { u: member.id, t: w.tenantId };
    },
    allowed: WRITERS,
  },
  updateProfile: {
    query: `mutation { updateProfile(input: { name: "Renamed" }) { id } }`,
    allowed: SIGNED_IN,
  },
  setUserDisabled: {
    query: `mutation ($id: ID!) { setUserDisabled(id: $id, disabled: true) { disabledAt } }`,
    variables: async (w) => ({
      id: (
        await createUser(app.prisma, {
          memberships: [{ role: 'tenant_viewer', tenantId: w.tenantId }],
        })
      ).id,
    }),
    allowed: OPERATORS,
  },
  // API keys
  apiKeys: {
    query: `query ($t: ID!) { apiKeys(tenantId: $t) { totalCount } }`,
    variables: async (w) => ({ t: w.tenantId }),
    allowed: READERS,
  },
  apiKey: {
    query: `query ($id: ID!) { apiKey(id: $id) { id } }`,
    variables: async (w) => ({ id: await keyOf(w.tenantId) }),
    allowed: READERS,
  },
  createApiKey: {
    query: `mutation ($i: CreateApiKeyInput!) { createApiKey(input: $i) { secret } }`,
    variables: async (w) => ({ i: { tenantId: w.tenantId, name: 'matrix' } }),
    allowed: WRITERS,
  },
  updateApiKey: {
    query: `mutation ($i: UpdateApiKeyInput!) { updateApiKey(input: $i) { id } }`,
    variables: async (w) => ({ i: { id: await keyOf(w.tenantId), name: 'renamed' } }),
    allowed: WRITERS,
  },
  revokeApiKey: {
    query: `mutation ($id: ID!) { revokeApiKey(id: $id) { id } }`,
    variables: async (w) => ({ id: await keyOf(w.tenantId) }),
    allowed: WRITERS,
  },
  rotateApiKey: {
    query: `mutation ($id: ID!) { rotateApiKey(id: $id) { secret } }`,
    variables: async (w) => ({ id: await keyOf(w.tenantId) }),
    allowed: WRITERS,
  },
  // plans (the operators' alone to change; members read their tenant's)
  plans: { query: `{ plans { totalCount } }`, allowed: SIGNED_IN },
  plan: {
    query: `query ($id: ID!) { plan(id: $id) { id } }`,
    variables: async (w) => ({ id: w.planId }),
    allowed: READERS,
  },
  createPlan: {
    query: `mutation ($i: CreatePlanInput!) { createPlan(input: $i) { id } }`,
    variables: async () => ({ i: { slug: slug('p'), name: 'P' } }),
    allowed: OPERATORS,
  },
  updatePlan: {
    query: `mutation ($id: ID!) { updatePlan(id: $id, input: { description: "d" }) { id } }`,
    variables: async (w) => ({ id: w.planId }),
    allowed: OPERATORS,
  },
  deletePlan: {
    query: `mutation ($id: ID!) { deletePlan(id: $id) }`,
    variables: async (w) => ({ id: (await planWithApi(app, w.operatorToken)).planId }),
    allowed: OPERATORS,
  },
  createPlanPolicy: {
    query: `mutation ($p: ID!, $i: PolicySettingsInput!) { createPlanPolicy(planId: $p, input: $i) { tenantsRepublished } }`,
    variables: async (w) => ({
      p: (await planWithApi(app, w.operatorToken)).planId,
      i: policySettings,
    }),
    allowed: OPERATORS,
  },
  updatePlanPolicy: {
    query: `mutation ($id: ID!, $i: PolicySettingsInput!) { updatePlanPolicy(id: $id, input: $i) { tenantsRepublished } }`,
    variables: async (w) => ({
      id: (await planWithApi(app, w.operatorToken)).policyId,
      i: { ...policySettings, name: 'api' },
    }),
    allowed: OPERATORS,
  },
  deletePlanPolicy: {
    query: `mutation ($id: ID!) { deletePlanPolicy(id: $id) { tenantsRepublished } }`,
    variables: async (w) => ({ id: (await planWithApi(app, w.operatorToken)).policyId }),
    allowed: OPERATORS,
  },
  // tenants
  tenants: { query: `{ tenants { totalCount } }`, allowed: SIGNED_IN },
  tenant: {
    query: `query ($id: ID!) { tenant(id: $id) { id publication { version } } }`,
    variables: async (w) => ({ id: w.tenantId }),
    allowed: READERS,
  },
  createTenant: {
    query: `mutation ($i: CreateTenantInput!) { createTenant(input: $i) { id } }`,
    variables: async (w) => ({ i: { slug: slug('t'), name: 'T', planId: w.planId } }),
    allowed: OPERATORS,
  },
  updateTenant: {
    query: `mutation ($id: ID!) { updateTenant(id: $id, input: { name: "Renamed" }) { id } }`,
    variables: async (w) => ({ id: w.tenantId }),
    allowed: WRITERS,
  },
  setTenantStatus: {
    query: `mutation ($id: ID!) { setTenantStatus(id: $id, status: SUSPENDED) { id } }`,
    // the roles' own tenant for those who must be refused, a fresh one for the operator
    variables: async (w, role) => ({ id: role === 'operator' ? await freshTenant() : w.tenantId }),
    allowed: OPERATORS,
  },
  deleteTenant: {
    query: `mutation ($id: ID!) { deleteTenant(id: $id) }`,
    // the roles' own tenant for those who must be refused, a fresh one for the operator
    variables: async (w, role) => ({ id: role === 'operator' ? await freshTenant() : w.tenantId }),
    allowed: OPERATORS,
  },
  // policies, overrides, versions
  tenantPolicies: {
    query: `query ($t: ID!) { tenantPolicies(tenantId: $t) { id } }`,
    variables: async (w) => ({ t: w.tenantId }),
    allowed: READERS,
  },
  effectivePolicies: {
    query: `query ($t: ID!) { effectivePolicies(tenantId: $t) { id } }`,
    variables: async (w) => ({ t: w.tenantId }),
    allowed: READERS,
  },
  createPolicy: {
    query: `mutation ($t: ID!, $i: PolicySettingsInput!) { createPolicy(tenantId: $t, input: $i) { version } }`,
    variables: async (w) => ({
      t: w.tenantId,
      i: { ...policySettings, name: `m${Math.random().toString(36).slice(2, 8)}` },
    }),
    allowed: WRITERS,
  },
  updatePolicy: {
    query: `mutation ($id: ID!, $i: PolicySettingsInput!) { updatePolicy(id: $id, input: $i) { version } }`,
    variables: async (w) => ({
      id: await ownPolicy(w.tenantId),
      i: { ...policySettings, name: `u${Math.random().toString(36).slice(2, 8)}` },
    }),
    allowed: WRITERS,
  },
  deletePolicy: {
    query: `mutation ($id: ID!) { deletePolicy(id: $id) { version } }`,
    variables: async (w) => ({ id: await ownPolicy(w.tenantId) }),
    allowed: WRITERS,
  },
  // try in shadow: a tenant's own policy is its writers'
  tryCandidateRules: {
    query: `mutation ($i: TryCandidateRulesInput!) { tryCandidateRules(input: $i) { tenantsRepublished } }`,
    variables: async (w) => ({
      i: { policyId: await ownPolicy(w.tenantId), candidateRules: [candidate] },
    }),
    allowed: WRITERS,
  },
  applyCandidateRules: {
    query: `mutation ($id: ID!) { applyCandidateRules(policyId: $id) { tenantsRepublished } }`,
    variables: async (w) => ({ id: await triedPolicy(w.tenantId) }),
    allowed: WRITERS,
  },
  discardCandidateRules: {
    query: `mutation ($id: ID!) { discardCandidateRules(policyId: $id) { tenantsRepublished } }`,
    variables: async (w) => ({ id: await triedPolicy(w.tenantId) }),
    allowed: WRITERS,
  },
  tryPlanPolicyCandidates: {
    query: TRY_PLAN_POLICY,
    variables: async (w) => planPolicyProposal(w.tenantId),
    allowed: WRITERS,
  },
  applyPlanPolicyCandidates: {
    query: `mutation ($t: ID!) { applyPlanPolicyCandidates(tenantId: $t, policy: "api") { version } }`,
    variables: async (w) => ({ t: await triedPlanPolicy(w.tenantId) }),
    allowed: WRITERS,
  },
  discardPlanPolicyCandidates: {
    query: `mutation ($t: ID!) { discardPlanPolicyCandidates(tenantId: $t, policy: "api") { version } }`,
    variables: async (w) => ({ t: await triedPlanPolicy(w.tenantId) }),
    allowed: WRITERS,
  },
  changePlanPolicy: {
    query: `mutation ($t: ID!) { changePlanPolicy(input: { tenantId: $t, policy: "api", rules: [{ name: "burst", capacity: 6 }] }) { version } }`,
    variables: async (w) => ({ t: w.tenantId }),
    allowed: WRITERS,
  },
  overrides: {
    query: `query ($t: ID!) { overrides(tenantId: $t) { totalCount } }`,
    variables: async (w) => ({ t: w.tenantId }),
    allowed: READERS,
  },
  createOverride: {
    query: `mutation ($i: CreateOverrideInput!) { createOverride(input: $i) { version } }`,
    variables: async (w) => ({
      i: {
        tenantId: w.tenantId,
        policy: 'api',
        identifier: `c-${Math.random().toString(36).slice(2, 8)}`,
        rules: [{ name: 'burst', capacity: 8 }],
      },
    }),
    allowed: WRITERS,
  },
  updateOverride: {
    query: `mutation ($id: ID!) { updateOverride(id: $id, input: { reason: "r" }) { version } }`,
    variables: async (w) => ({ id: await override(w.tenantId) }),
    allowed: WRITERS,
  },
  deleteOverride: {
    query: `mutation ($id: ID!) { deleteOverride(id: $id) { version } }`,
    variables: async (w) => ({ id: await override(w.tenantId) }),
    allowed: WRITERS,
  },
  policyVersions: {
    query: `query ($t: ID!) { policyVersions(tenantId: $t) { totalCount } }`,
    variables: async (w) => ({ t: w.tenantId }),
    allowed: READERS,
  },
  exportPolicies: {
    query: `query ($t: ID!) { exportPolicies(tenantId: $t) }`,
    variables: async (w) => ({ t: w.tenantId }),
    allowed: READERS,
  },
  importPolicies: {
    query: `mutation ($t: ID!) { importPolicies(input: { tenantId: $t, document: "format: sluice.dev/policies/v1\\n" }) { version } }`,
    variables: async (w) => ({ t: w.tenantId }),
    allowed: WRITERS,
  },
  rollbackPolicies: {
    query: `mutation ($t: ID!) { rollbackPolicies(tenantId: $t, version: 1) { version } }`,
    variables: async (w) => ({ t: w.tenantId }),
    allowed: WRITERS,
  },
  auditLog: {
    query: `query ($t: ID) { auditLog(tenantId: $t) { totalCount } }`,
    variables: async (w) => ({ t: w.tenantId }),
    allowed: READERS,
  },
  // webhook endpoints
  webhookEndpoints: {
    query: `query ($t: ID!) { webhookEndpoints(tenantId: $t) { id } }`,
    variables: async (w) => ({ t: w.tenantId }),
    allowed: READERS,
  },
  webhookEndpoint: {
    query: `query ($id: ID!) { webhookEndpoint(id: $id) { id queue { depth } } }`,
    variables: async (w) => ({ id: await endpoint(w.tenantId) }),
    allowed: READERS,
  },
  createWebhookEndpoint: {
    query: `mutation ($i: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $i) { secret } }`,
    variables: async (w) => ({ i: endpointInput(w.tenantId) }),
    allowed: WRITERS,
  },
  updateWebhookEndpoint: {
    query: `mutation ($id: ID!) { updateWebhookEndpoint(input: { id: $id, enabled: false }) { id } }`,
    variables: async (w) => ({ id: await endpoint(w.tenantId) }),
    allowed: WRITERS,
  },
  deleteWebhookEndpoint: {
    query: `mutation ($id: ID!) { deleteWebhookEndpoint(id: $id) }`,
    variables: async (w) => ({ id: await endpoint(w.tenantId) }),
    allowed: WRITERS,
  },
  rotateWebhookEndpointSecret: {
    query: `mutation ($id: ID!) { rotateWebhookEndpointSecret(id: $id) { secret } }`,
    variables: async (w) => ({ id: await endpoint(w.tenantId) }),
    allowed: WRITERS,
  },
  replayWebhookDeadLetter: {
    query: `mutation ($id: ID!) { replayWebhookDeadLetter(endpointId: $id, eventId: "evt_0000000000000000000000") { replayed } }`,
    variables: async (w) => ({ id: await endpoint(w.tenantId) }),
    allowed: WRITERS,
  },
  replayWebhookDeadLetters: {
    query: `mutation ($id: ID!) { replayWebhookDeadLetters(endpointId: $id) { replayed } }`,
    variables: async (w) => ({ id: await endpoint(w.tenantId) }),
    allowed: WRITERS,
  },
  // usage
  usageSeries: {
    query: `query ($i: UsageSeriesInput!) { usageSeries(input: $i) { resolution } }`,
    variables: async (w) => ({ i: { tenantId: w.tenantId, policy: 'api', ...hour() } }),
    allowed: READERS,
  },
  usageTotals: {
    query: `query ($t: ID!, $from: DateTime!, $to: DateTime!) { usageTotals(tenantId: $t, from: $from, to: $to) { policy } }`,
    variables: async (w) => ({ t: w.tenantId, ...hour() }),
    allowed: READERS,
  },
  topDeniedIdentifiers: {
    query: `query ($t: ID!, $from: DateTime!, $to: DateTime!) { topDeniedIdentifiers(tenantId: $t, policy: "api", from: $from, to: $to) { identifier } }`,
    variables: async (w) => ({ t: w.tenantId, ...hour() }),
    allowed: READERS,
  },
  decisionLog: {
    query: `query ($t: ID!) { decisionLog(tenantId: $t, policy: "api") { entries { id } } }`,
    variables: async (w) => ({ t: w.tenantId }),
    allowed: READERS,
  },
  // playground (the tenant's policies published first: an unknown policy is NOT_FOUND)
  playgroundCheck: {
    query: `mutation ($i: PlaygroundCheckInput!) { playgroundCheck(input: $i) { allowed } }`,
    variables: async (w) => {
      await published(app, w.tenantId);
      return { i: { tenantId: w.tenantId, policy: 'api', identifier: 'matrix' } };
    },
    allowed: WRITERS,
  },
  algorithmComparison: {
    query: `query { algorithmComparison(pattern: BURSTS, limit: 2, windowSeconds: 1) { limit } }`,
    allowed: SIGNED_IN,
  },
  playgroundPeek: {
    query: `query ($t: ID!) { playgroundPeek(tenantId: $t, policy: "api", identifier: "matrix") { allowed } }`,
    variables: async (w) => {
      await published(app, w.tenantId);
      return { t: w.tenantId };
    },
    allowed: READERS,
  },
  // an identifier's page (the tenant's policies published first)
  identifierState: {
    query: `query ($t: ID!) { identifierState(tenantId: $t, policy: "api", identifier: "matrix") { canReset } }`,
    variables: async (w) => {
      await published(app, w.tenantId);
      return { t: w.tenantId };
    },
    allowed: READERS,
  },
  topIdentifiers: {
    query: `query ($t: ID!, $from: DateTime!, $to: DateTime!) { topIdentifiers(tenantId: $t, policy: "api", from: $from, to: $to) { identifier } }`,
    variables: async (w) => ({ t: w.tenantId, ...hour() }),
    allowed: READERS,
  },
  estimateRules: {
    query: `query ($i: EstimateRulesInput!) { estimateRules(input: $i) { identifiers } }`,
    variables: async (w) => {
      await published(app, w.tenantId);
      return {
        i: {
          tenantId: w.tenantId,
          policy: 'api',
          rules: [{ name: 'r', algorithm: 'TOKEN_BUCKET', capacity: 5, refillPerSecond: 1 }],
        },
      };
    },
    allowed: READERS,
  },
  platform: {
    query: `{ platform { at traffic { allowed } publication { pending } dataPlanes { instance } workers { instance } } }`,
    allowed: OPERATORS,
  },
  // the world's plan leaves counter resets to operators (its default): admins are refused
  resetIdentifier: {
    query: `mutation ($i: ResetIdentifierInput!) { resetIdentifier(input: $i) { deleted } }`,
    variables: async (w) => {
      await published(app, w.tenantId);
      return { i: { tenantId: w.tenantId, policy: 'api', identifier: 'matrix' } };
    },
    allowed: OPERATORS,
  },
};

beforeAll(async () => {
  app = await startTestApp({
    // every role logs in several times: the login throttle is not what this test is about
    CONTROL_PLANE_LOGIN_ACCOUNT_LIMIT: '1000',
    CONTROL_PLANE_LOGIN_IP_LIMIT: '100000',
    // webhook endpoints need a secrets key, and this test's receiver URL is on loopback
    SLUICE_SECRETS_KEY: randomBytes(32).toString('base64'),
    SLUICE_WEBHOOK_ALLOWED_CIDRS: '127.0.0.1/32',
  });
  const op = await operator(app);
  const { planId, policyId } = await planWithApi(app, op.token);
  const tenantId = await tenantOn(app, op.token, planId);
  // the outsider's tenant is on a plan of its own: members read their own tenant's plan only
  const other = await tenantOn(app, op.token, (await planWithApi(app, op.token)).planId);
  world = { planId, policyId, tenantId, operatorToken: op.token };
  users.set('operator', op.user);
  users.set(
    'admin',
    await createUser(app.prisma, { memberships: [{ role: 'tenant_admin', tenantId }] }),
  );
  users.set(
    'viewer',
    await createUser(app.prisma, { memberships: [{ role: 'tenant_viewer', tenantId }] }),
  );
  users.set(
    'outsider',
    await createUser(app.prisma, { memberships: [{ role: 'tenant_admin', tenantId: other }] }),
  );
  for (const [role, user] of users) tokens.set(role, await loginWithBearer(app, user));
  tokens.set('anonymous', undefined);
}, 60_000);
afterAll(async () => {
  await app?.close();
});

describe('role × resolver matrix', () => {
  it('has a row for every query and mutation of the schema', () => {
    const schema = app.app.get(GraphQLSchemaHost).schema;
    const fields = [
      ...Object.keys(schema.getQueryType()?.getFields() ?? {}),
      ...Object.keys(schema.getMutationType()?.getFields() ?? {}),
    ].sort();
    expect(fields).toEqual(Object.keys(PROBES).sort());
  });

  it.each(Object.entries(PROBES))('%s', async (name, probe) => {
    const outcomes: Record<string, string> = {};
    const expected: Record<string, string> = {};
    for (const role of ROLES) {
      // logout ends the session it is sent with: that run gets a session of its own
      const token =
        name === 'logout' && role !== 'anonymous'
          ? await loginWithBearer(app, users.get(role)!)
          : tokens.get(role);
      const variables = (await probe.variables?.(world, role)) ?? {};
      const audited = await app.prisma.auditLog.count();
      const response = await app.graphql(probe.query, variables, token ? { bearer: token } : {});
      const codes = (response.body.errors ?? []).map((e) => String(e.extensions?.['code']));
      const refused = codes.find((code) => REFUSALS.has(code));
      outcomes[role] = refused ? `refused (${refused})` : 'allowed';
      expected[role] = probe.allowed.includes(role) ? 'allowed' : outcomes[role];
      if (!probe.allowed.includes(role)) {
        // a refusal, and the right kind: no session is UNAUTHENTICATED
        expected[role] =
          role === 'anonymous' ? 'refused (UNAUTHENTICATED)' : refused ? outcomes[role] : 'refused';
      }
      // every mutation that went through left an audit entry (in its own transaction)
      if (probe.query.trimStart().startsWith('mutation') && codes.length === 0) {
        expect(await app.prisma.auditLog.count(), `${name} as ${role}: audited`).toBeGreaterThan(
          audited,
        );
      }
      // an error that is neither a refusal nor about the input would be a bug
      expect(
        codes.filter((code) => code === 'INTERNAL_SERVER_ERROR'),
        `${name} as ${role}`,
      ).toEqual([]);
    }
    expect(outcomes).toEqual(expected);
  });
});
