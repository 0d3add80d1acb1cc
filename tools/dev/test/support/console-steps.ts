import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { DemoUser } from '../../src/seed';
import type { ConsoleBrowser, Scheme, TrackedPage } from './console-browser';
import type { ConsoleStack } from './console-stack';

/** Steps several console specs take the same way. */

export interface CheckAnswer {
  status: number;
  body: {
    allowed?: boolean;
    remaining?: number;
    limit?: number;
    deniedBy?: string;
    rules?: { name: string; allowed: boolean; limit: number; remaining: number }[];
    candidates?: { name: string; allowed: boolean }[];
  };
}

/** POST /v1/check on the data plane with a service key. */
export async function checkWith(
  stack: ConsoleStack,
  secret: string,
  body: { policy: string; identifier: string; cost?: number; dryRun?: boolean },
): Promise<CheckAnswer> {
  const response = await fetch(`${stack.dataPlane}/v1/check`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as CheckAnswer['body'] };
}

/** Invites `email` as `role` from the members page of the tenant `tenantUrl` points at. */
export async function inviteMember(
  page: Page,
  tenantUrl: string,
  email: string,
  role: 'Admin' | 'Viewer',
): Promise<void> {
  await page.goto(`${tenantUrl}/members`);
  await page.getByRole('button', { name: 'Invite a member' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite a member' });
  await dialog.getByLabel(/^Email/).fill(email);
  await dialog.getByRole('radio', { name: role }).check();
  await dialog.getByRole('button', { name: 'Send the invitation' }).click();
  await page.getByText(`Invitation sent to ${email}.`).waitFor();
  await page.getByRole('cell', { name: email, exact: true }).waitFor();
}

/**
 * Accepts the invitation mailed to `user` (read from the SMTP sink) in a fresh browser: a new
 * account, landing on the tenant's overview at `tenantUrl`.
 */
export async function acceptInvitation(
  stack: ConsoleStack,
  browser: ConsoleBrowser,
  invitation: { user: DemoUser; name: string; tenantName: string; tenantUrl: string },
  scheme: Scheme = 'light',
): Promise<TrackedPage> {
  const { user, name, tenantName, tenantUrl } = invitation;
  const mail = await stack.smtp.waitFor(user.email);
  const link = /https?:\/\/\S+\/invite\/\S+/.exec(mail.text)?.[0];
  expect(link?.startsWith(`${stack.dashboard}/invite/`)).toBe(true);
  const tracked = await browser.open(scheme);
  const { page } = tracked;
  await page.goto(link!);
  await page.getByRole('heading', { name: `Join ${tenantName}` }).waitFor();
  await page.getByLabel(/^Your name/).fill(name);
  await page.getByLabel(/^Choose a password/).fill(user.password);
  await page.getByRole('button', { name: 'Accept the invitation' }).click();
  await page.waitForURL(tenantUrl);
  return tracked;
}

/** The one-time secret a dialog shows. */
export async function secretIn(dialog: Locator, prefix: RegExp): Promise<string> {
  const text = await dialog.getByText(prefix).first().textContent();
  expect(text).toMatch(prefix);
  return text!;
}

export interface GraphqlAnswer {
  data?: Record<string, unknown>;
  errors?: { message: string; extensions?: { code?: string } }[];
}

/** The control plane's GraphQL API, as a script would call it (a bearer session). */
export async function graphql(
  stack: ConsoleStack,
  query: string,
  variables: Record<string, unknown> = {},
  token?: string,
): Promise<GraphqlAnswer> {
  const response = await fetch(`${stack.controlPlane}/graphql`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token && { authorization: `Bearer ${token}` }),
    },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as GraphqlAnswer;
}

/** An operation's data, failing the test on any error. */
export async function graphqlData<T>(
  stack: ConsoleStack,
  query: string,
  variables: Record<string, unknown>,
  token: string,
): Promise<T> {
  const answer = await graphql(stack, query, variables, token);
  expect(answer.errors).toBeUndefined();
  return answer.data as T;
}

/** A bearer session of `user`. */
export async function bearerLogin(stack: ConsoleStack, user: DemoUser): Promise<string> {
  const { login } = await graphqlData<{ login: { token: string } }>(
    stack,
    `mutation ($email: String!, $password: String!) {
      login(input: { email: $email, password: $password, transport: BEARER }) { token }
    }`,
    { email: user.email, password: user.password },
    '',
  );
  return login.token;
}

/** The policy editor's fields, as a person fills them. */
export const policyEditor = {
  /** The fieldset of rule `n` (from 1), after adding it if asked. */
  async rule(dialog: Locator, n: number, add = false): Promise<Locator> {
    if (add) await dialog.getByRole('button', { name: 'Add a rule' }).click();
    const group = dialog.getByRole('group', { name: `Rule ${n}`, exact: true });
    await group.waitFor();
    return group;
  },
  fill: (group: Locator, label: string, value: string) =>
    group.getByRole('textbox', { name: label, exact: true }).fill(value),
  algorithm: (group: Locator, value: string) =>
    group.getByRole('combobox', { name: 'Algorithm' }).selectOption(value),
  unit: (group: Locator, label: string, value: string) =>
    group.getByRole('combobox', { name: `${label} unit` }).selectOption(value),
};

/** Opens a plan's page from the plans list. */
export async function openPlan(page: Page, dashboard: string, name: string): Promise<void> {
  await page.goto(`${dashboard}/plans?search=${encodeURIComponent(name)}`);
  await page.getByRole('link', { name, exact: true }).click();
  await page.getByRole('heading', { name, level: 1 }).waitFor();
}

/** A rule as the API stores it (`Rule`), every parameter listed. */
export interface StoredRule {
  name: string;
  algorithm: string;
  candidate: boolean;
  capacity: number | null;
  refillPerSecond: number | null;
  leakPerSecond: number | null;
  limit: number | null;
  windowMs: number | null;
  periodMs: number | null;
  burst: number | null;
  leaseTtlMs: number | null;
  calendar: { unit: string; timeZone: string } | null;
  tenantBounds: { param: string; min: number | null; max: number | null }[];
}

/** The rules of one of a plan's templates, as the API stores them. */
export async function storedTemplateRules(
  stack: ConsoleStack,
  token: string,
  planId: string,
  template: string,
): Promise<StoredRule[]> {
  const { plan } = await graphqlData<{
    plan: { policies: { name: string; rules: StoredRule[] }[] };
  }>(
    stack,
    `query ($id: ID!) {
      plan(id: $id) {
        policies {
          name
          rules {
            name algorithm candidate capacity refillPerSecond leakPerSecond limit windowMs
            periodMs burst leaseTtlMs calendar { unit timeZone } tenantBounds { param min max }
          }
        }
      }
    }`,
    { id: planId },
    token,
  );
  return plan.policies.find((p) => p.name === template)?.rules ?? [];
}

/**
 * Subscribes from inside `page`, as the console will: a graphql-transport-ws socket to the page's
 * own origin (the dashboard's server upgrades it to the control plane), the session cookie sent
 * by the browser and the CSRF token in the connection parameters. Resolves once the control plane
 * acknowledged the connection; the function it gives waits for the first event's data, failing
 * after `timeoutMs` (events come within a second or two: the default is far beyond 5 times that)
 * rather than leaving the test to hang until its own timeout.
 *
 * The protocol says nothing once a subscription runs on the server: subscribe well before the
 * action whose event is awaited, so the server has long set it up by then.
 */
export async function subscribeInPage(
  page: Page,
  query: string,
  variables: Record<string, unknown>,
  timeoutMs = 30_000,
): Promise<() => Promise<unknown>> {
  // a string, not a function: this package is compiled without the DOM's types
  await page.evaluate(`new Promise((acked, failed) => {
    const csrfToken = document.cookie.match(/(?:^|; )sluice_csrf=([^;]+)/)?.[1];
    const socket = new WebSocket(location.origin.replace(/^http/, 'ws') + '/graphql', 'graphql-transport-ws');
    window.__sluiceEvent = new Promise((received, refused) => {
      socket.onmessage = ({ data }) => {
        const message = JSON.parse(data);
        if (message.type === 'connection_ack') {
          socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: ${JSON.stringify(query)}, variables: ${JSON.stringify(variables)} } }));
          acked();
        } else if (message.type === 'next') {
          received(message.payload);
          socket.close(1000);
        } else if (message.type === 'error') refused(new Error(JSON.stringify(message.payload)));
      };
      socket.onclose = ({ code }) => { failed(new Error('closed ' + code)); refused(new Error('closed ' + code)); };
    });
    socket.onopen = () => socket.send(JSON.stringify({ type: 'connection_init', payload: { csrfToken } }));
  })`);
  return () =>
    page.evaluate(`Promise.race([
      window.__sluiceEvent,
      new Promise((_, late) => setTimeout(() => late(new Error('no event within ${timeoutMs} ms')), ${timeoutMs})),
    ])`);
}
