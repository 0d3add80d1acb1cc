/**
 * How long a tenant admin's policy change takes to reach the data plane, on the demo `npm start`
 * runs: a script that prints figures (no test asserts them; the goal is 2 s). With `npm start`
 * running in another terminal, from the repository root:
 *
 *   node_modules/.bin/tsx --conditions=@sluice/source bench/src/policy-propagation.ts \
 *     [--control-plane http://127.0.0.1:4000] [--data-plane http://127.0.0.1:4100] [--rounds 10]
 *
 * Signs in once as the demo tenant admin (GraphQL `login`, session cookie + `x-csrf-token`, as
 * the dashboard does). Each round sets the demo tenant's `api` policy's `burst` capacity with
 * `changePlanPolicy` to the value not in effect (the current one and a neighbour within the plan's
 * bounds, alternately), then from the mutation's answer polls `POST /v1/check` with the demo key
 * every 20 ms, on a fresh identifier each time, until the `burst` rule's limit is the new capacity
 * (30 s at most). The delay runs to that probe's answer: at most one interval and one probe late.
 * At the end (also on Ctrl-C) the policy's earlier values are put back. The password and the key
 * are those `npm start` keeps in `.data/`.
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';

const POLICY = 'api';
const RULE = 'burst';
const PROBE_INTERVAL_MS = 20;
const DEADLINE_MS = 30_000;
/** The demo tenant admin (tools/dev/src/seed.ts; bench imports no tool). */
const ADMIN_EMAIL = 'admin@demo.sluice.local';
/** npm start's local state, as tools/dev/src/paths.ts resolves it. */
const dataDir = path.resolve(__dirname, '../..', process.env['SLUICE_DATA_DIR'] ?? '.data');

const { values } = parseArgs({
  options: {
    'control-plane': { type: 'string', default: 'http://127.0.0.1:4000' },
    'data-plane': { type: 'string', default: 'http://127.0.0.1:4100' },
    rounds: { type: 'string', default: '10' },
  },
});
const controlPlane = values['control-plane'].replace(/\/$/, '');
const dataPlane = values['data-plane'].replace(/\/$/, '');
const rounds = Number(values.rounds);
if (!Number.isInteger(rounds) || rounds < 1) throw new Error('--rounds must be a whole number ≥ 1');

type Session = { cookie: string; csrf: string };
interface Param {
  name: string;
  value: number | null;
  calendar: { timeZone: string; unit: string } | null;
  source: 'PLAN' | 'TENANT';
  min: number | null;
  max: number | null;
}
interface Policy {
  name: string;
  rules: { name: string; candidate: boolean; params: Param[] }[];
}

const LOGIN = `mutation ($input: LoginInput!) {
  login(input: $input) { csrfToken user { memberships { tenantId role } } } }`;
const EFFECTIVE = `query ($tenantId: ID!) { effectivePolicies(tenantId: $tenantId) {
  name rules { name candidate params { name value calendar { timeZone unit } source min max } } } }`;
const CHANGE = `mutation ($input: ChangePlanPolicyInput!) { changePlanPolicy(input: $input) { version } }`;
const LOGOUT = 'mutation { logout }';

async function graphql<T>(
  query: string,
  variables: Record<string, unknown>,
  session?: Session,
): Promise<{ data: T; headers: Headers }> {
  const response = await fetch(`${controlPlane}/graphql`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(session && { cookie: session.cookie, 'x-csrf-token': session.csrf }),
    },
    body: JSON.stringify({ query, variables }),
    signal: AbortSignal.timeout(10_000),
  });
  const body = (await response.json()) as { data?: T | null; errors?: unknown[] };
  if (body.errors?.length || !body.data) {
    throw new Error(`GraphQL answered ${response.status}: ${JSON.stringify(body.errors)}`);
  }
  return { data: body.data, headers: response.headers };
}

/** Signs in once (the control plane throttles logins): the session and the admin's tenant. */
async function signIn(): Promise<{ session: Session; tenantId: string }> {
  const password = (await readFile(path.join(dataDir, 'demo-admin-password'), 'utf8')).trim();
  const { data, headers } = await graphql<{
    login: {
      csrfToken: string | null;
      user: { memberships: { tenantId: string | null; role: string }[] };
    };
  }>(LOGIN, { input: { email: ADMIN_EMAIL, password } });
  const cookie = headers
    .getSetCookie()
    .map((line) => line.split(';')[0] ?? '')
    .join('; ');
  const tenantId = data.login.user.memberships.find((m) => m.role === 'TENANT_ADMIN')?.tenantId;
  if (!data.login.csrfToken || !cookie.includes('sluice_session=') || !tenantId) {
    throw new Error(`login gave no cookie session or tenant: ${JSON.stringify(data)}`);
  }
  return { session: { cookie, csrf: data.login.csrfToken }, tenantId };
}

/** The tenant's own values of the policy's parameters, with `burst` capacity set when given. */
function ruleChanges(policy: Policy, capacity?: number): Record<string, unknown>[] {
  return policy.rules
    .filter((rule) => !rule.candidate)
    .flatMap((rule) => {
      const own = rule.params.filter((p) => p.source === 'TENANT');
      const params = Object.fromEntries(own.map((p) => [p.name, p.calendar ?? p.value]));
      if (rule.name === RULE && capacity !== undefined) params['capacity'] = capacity;
      return Object.keys(params).length > 0 ? [{ name: rule.name, ...params }] : [];
    });
}

/** The `burst` limit a check on a fresh identifier decides with. */
async function burstLimit(apiKey: string): Promise<number | undefined> {
  const response = await fetch(`${dataPlane}/v1/check`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ policy: POLICY, identifier: `propagation-${randomUUID()}` }),
    signal: AbortSignal.timeout(10_000),
  });
  if (!response.ok)
    throw new Error(`/v1/check answered ${response.status}: ${await response.text()}`);
  const body = (await response.json()) as { rules?: { name: string; limit: number }[] };
  return body.rules?.find((rule) => rule.name === RULE)?.limit;
}

let interrupted = false;
process.once('SIGINT', () => (interrupted = true));

/** Ms from `from` until a probe's answer shows `capacity`; undefined past the deadline or Ctrl-C. */
async function delayUntil(key: string, capacity: number, from: number) {
  for (;;) {
    const sent = performance.now();
    const limit = await burstLimit(key);
    const answered = performance.now();
    if (limit === capacity) return answered - from;
    if (answered - from > DEADLINE_MS || interrupted) return undefined;
    await sleep(Math.max(0, sent + PROBE_INTERVAL_MS - answered));
  }
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

async function main(): Promise<void> {
  const apiKey = (await readFile(path.join(dataDir, 'demo-api-key'), 'utf8')).trim();
  const { session, tenantId } = await signIn();
  const change = (rules: Record<string, unknown>[]) =>
    graphql<{ changePlanPolicy: { version: number } }>(
      CHANGE,
      { input: { tenantId, policy: POLICY, rules } },
      session,
    );
  const { data } = await graphql<{ effectivePolicies: Policy[] }>(EFFECTIVE, { tenantId }, session);
  const original = data.effectivePolicies.find((p) => p.name === POLICY);
  const param = original?.rules
    .find((rule) => rule.name === RULE && !rule.candidate)
    ?.params.find((p) => p.name === 'capacity');
  if (!original || typeof param?.value !== 'number') {
    throw new Error(`tenant ${tenantId} has no ${POLICY} policy with a ${RULE} capacity`);
  }
  const current = param.value;
  const other = current + 1 <= (param.max ?? Infinity) ? current + 1 : current - 1;
  if (other < (param.min ?? 1))
    throw new Error(`the plan lets ${RULE} capacity be ${current} only`);
  console.log(
    `tenant ${tenantId}: ${POLICY}.${RULE} capacity ${current} (plan bounds ${param.min ?? '-'}..${param.max ?? '-'}), alternating with ${other}`,
  );
  if ((await delayUntil(apiKey, current, performance.now())) === undefined) {
    throw new Error(
      interrupted ? 'interrupted' : `the data plane does not decide with capacity ${current} yet`,
    );
  }

  const delays: number[] = [];
  let changed = false;
  try {
    for (let round = 1; round <= rounds && !interrupted; round += 1) {
      const capacity = round % 2 === 1 ? other : current;
      const asked = performance.now();
      changed = true;
      const { changePlanPolicy } = (await change(ruleChanges(original, capacity))).data;
      const answered = performance.now();
      const delay = await delayUntil(apiKey, capacity, answered);
      if (delay === undefined) {
        if (!interrupted)
          console.log(`round ${round}: capacity ${capacity} not decided within ${DEADLINE_MS} ms`);
        process.exitCode = 1;
        break;
      }
      delays.push(delay);
      console.log(
        `round ${round}: capacity ${capacity} (version ${changePlanPolicy.version}), mutation ${(answered - asked).toFixed(0)} ms, then decided with after ${delay.toFixed(0)} ms`,
      );
    }
  } finally {
    if (changed) {
      await change(ruleChanges(original));
      console.log(`restored ${POLICY}'s earlier values (${RULE} capacity ${current})`);
    }
    await graphql(LOGOUT, {}, session).catch(() => undefined);
  }
  if (delays.length === 0) return;
  const sorted = [...delays].sort((a, b) => a - b);
  const ms = (q: number) => quantile(sorted, q).toFixed(0);
  console.log(
    `change → data plane, ${sorted.length} rounds: min ${ms(0)} ms, median ${ms(0.5)} ms, p95 ${ms(0.95)} ms, max ${ms(1)} ms (goal: within 2,000 ms)`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
