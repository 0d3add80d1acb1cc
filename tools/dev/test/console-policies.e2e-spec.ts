import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DemoUser } from '../src/seed';
import {
  ConsoleBrowser,
  expectAccessible,
  screenshot,
  type Scheme,
} from './support/console-browser';
import { startConsoleStack, type ConsoleStack } from './support/console-stack';
import { bearerLogin, checkWith, graphqlData, type GraphqlAnswer } from './support/console-steps';

interface EffectivePolicies {
  effectivePolicies: {
    name: string;
    changed: boolean;
    rules: { name: string; params: { name: string; value: number | null; source: string }[] }[];
  }[];
}

// A tenant's policies in the console, on the real stack in Chromium: the demo tenant's admin
// reads every value with where it comes from, changes what the plan opens within its bounds (the
// form refuses a value beyond them; the API and the data plane then have the new value), confirms
// a change of window (its counters start afresh), goes back to the plan's values, creates, edits
// and deletes a policy of its own with the policy editor, tries values of a plan policy in shadow
// and applies them as its change; a viewer reads without write buttons.
// The page and its dialogs checked by axe-core and photographed in both themes.
// each test drives several pages, axe-core on many: a budget, as the access spec's, that a
// busy machine cannot exhaust (a test that waits in vain fails on its own shorter deadline)
describe('the console’s policies page', { timeout: 150_000 }, () => {
  let stack: ConsoleStack;
  let browser: ConsoleBrowser;
  let adminToken: string;
  let viewer: DemoUser;

  const data = <T>(query: string, variables: Record<string, unknown>, token: string) =>
    graphqlData<T>(stack, query, variables, token);
  const login = (user: DemoUser) => bearerLogin(stack, user);

  /** `effectivePolicies` as the signed-in browser's session gets it (cookie + CSRF header). */
  const sessionPolicies = async (page: Page) => {
    const csrf = (await page.context().cookies()).find((c) => c.name === 'sluice_csrf')?.value;
    expect(csrf).toBeDefined();
    const response = await page.request.post(`${stack.dashboard}/graphql`, {
      headers: { 'content-type': 'application/json', 'x-csrf-token': csrf ?? '' },
      data: {
        query: `query ($tenantId: ID!) {
          effectivePolicies(tenantId: $tenantId) {
            name changed rules { name params { name value source } }
          }
        }`,
        variables: { tenantId: stack.tenantId },
      },
    });
    const answer = (await response.json()) as GraphqlAnswer;
    expect(answer.errors).toBeUndefined();
    return (answer.data as unknown as EffectivePolicies).effectivePolicies;
  };
  const paramOf = (
    policies: EffectivePolicies['effectivePolicies'],
    policy: string,
    rule: string,
    param: string,
  ) =>
    policies
      .find((p) => p.name === policy)
      ?.rules.find((r) => r.name === rule)
      ?.params.find((p) => p.name === param);

  /** What the data plane's check (a dry run) says of the burst rule's limit (or its refusal). */
  const burstLimit = async () => {
    const { status, body } = await checkWith(stack, stack.apiKey, {
      policy: 'api',
      identifier: 'policies_page_user',
      dryRun: true,
    });
    if (status !== 200) return `HTTP ${status}: ${JSON.stringify(body)}`;
    return body.rules?.find((rule) => rule.name === 'burst')?.limit;
  };

  const policiesUrl = () => `${stack.dashboard}/t/${stack.tenantId}/policies`;
  /** A policy's card, by its name. */
  const card = (page: Page, name: string) => page.getByRole('region', { name, exact: true });
  /** A parameter's row in a policy's card. */
  const paramRow = (page: Page, policy: string, label: string) =>
    card(page, policy).getByRole('row').filter({ hasText: label });

  beforeAll(async () => {
    stack = await startConsoleStack();
    browser = await ConsoleBrowser.launch(stack.dashboard);
    adminToken = await login(stack.tenantAdmin);
    const operatorToken = await login(stack.operator);
    // a viewer of the demo tenant, invited by its admin as a person would be
    viewer = { email: 'viewer@demo.sluice.local', password: 'viewer password 42' };
    await data(
      `mutation ($tenantId: ID!, $email: String!) {
        inviteMember(input: { tenantId: $tenantId, email: $email, role: TENANT_VIEWER }) { id }
      }`,
      { tenantId: stack.tenantId, email: viewer.email },
      adminToken,
    );
    const mail = await stack.smtp.waitFor(viewer.email);
    await data(
      `mutation ($token: String!, $password: String!) {
        acceptInvitation(input: { token: $token, name: "Demo Viewer", password: $password, transport: BEARER }) { token }
      }`,
      { token: /\/invite\/([\w-]+)/.exec(mail.text)?.[1], password: viewer.password },
      '',
    );
    // a template of the free plan whose window the plan opens to its tenants
    const { tenant } = await data<{ tenant: { plan: { id: string } } }>(
      `query ($id: ID!) { tenant(id: $id) { plan { id } } }`,
      { id: stack.tenantId },
      operatorToken,
    );
    await data(
      `mutation ($planId: ID!) {
        createPlanPolicy(planId: $planId, input: {
          name: "exports", description: "Data exports",
          rules: [{ name: "hourly", algorithm: FIXED_WINDOW, limit: 100, windowMs: 3600000,
            tenantBounds: [{ param: "windowMs", min: 60000, max: 86400000 }] }]
        }) { policy { id } }
      }`,
      { planId: tenant.plan.id },
      operatorToken,
    );
    // a policy of the tenant's own, and an override of the plan's api policy
    await data(
      `mutation ($tenantId: ID!) {
        createPolicy(tenantId: $tenantId, input: {
          name: "reports", description: "Report generation", mode: SHADOW, failMode: CLOSED,
          rules: [{ name: "per-minute", algorithm: SLIDING_WINDOW_COUNTER, limit: 30, windowMs: 60000 }],
          candidateRules: [{ name: "smooth", algorithm: GCRA, limit: 10, periodMs: 1000, burst: 3 }]
        }) { version }
      }`,
      { tenantId: stack.tenantId },
      adminToken,
    );
    await data(
      `mutation ($tenantId: ID!) {
        createOverride(input: { tenantId: $tenantId, policy: "api", identifier: "premium_*",
          rules: [{ name: "burst", capacity: 40 }], reason: "premium" }) { version }
      }`,
      { tenantId: stack.tenantId },
      adminToken,
    );
  }, 180_000);
  afterAll(async () => {
    // the stack is stopped even when the browser's close fails (a crashed Chromium)
    try {
      await browser?.close();
    } finally {
      await stack?.stop();
    }
  });

  it('shows every policy, its values and where they come from, searchable', async () => {
    const tracked = await browser.signedIn(stack.tenantAdmin);
    const { page } = tracked;
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Policies' }).click();
    await page.getByRole('heading', { name: 'Policies', level: 1 }).waitFor();
    expect((await nav.getByRole('link').allTextContents()).slice(0, 2)).toEqual([
      'Overview',
      'Policies',
    ]);

    // the plan's api policy: burst capacity 5, from the plan, which allows 1 to 50
    const api = card(page, 'api');
    await api.getByText('From the plan').waitFor();
    await api.getByText('5 at once, then 1 per second').waitFor();
    await api.getByText('1,000 per day').waitFor();
    const capacity = paramRow(page, 'api', 'Capacity');
    expect(await capacity.getByRole('cell').allTextContents()).toEqual(
      expect.arrayContaining(['Capacity', '5', 'Plan', '1 – 50']),
    );
    expect(await paramRow(page, 'api', 'Window').getByRole('cell').allTextContents()).toEqual(
      expect.arrayContaining(['Window', '1 day', 'Plan', 'fixed by the plan']),
    );
    // its override, with a link to the overrides page
    await api.getByText('premium_*').waitFor();
    await api.getByText('prefix', { exact: true }).waitFor();
    await api.getByRole('link', { name: 'Manage the overrides of api' }).waitFor();

    // the tenant's own policy: its settings, every value its own, its candidate rule marked
    const reports = card(page, 'reports');
    await reports.getByText('Tenant’s own').first().waitFor();
    await reports.getByText('Shadow', { exact: true }).waitFor();
    await reports.getByText('Closed', { exact: true }).waitFor();
    await reports.getByText('30 in any 1 minute').waitFor();
    // the candidate, in the rules and in its trial's figures
    await reports.getByText('10 per second, spaced evenly, up to 3 at once').first().waitFor();
    await reports.getByText('candidate', { exact: true }).waitFor();
    await reports.getByRole('table', { name: 'Candidates of reports' }).waitFor();
    await reports.getByRole('button', { name: 'Edit reports' }).waitFor();
    expect(await reports.getByRole('button', { name: /^Change values/ }).count()).toBe(0);

    // the search is the URL's: a reload keeps it
    await page.getByRole('textbox', { name: 'Search' }).fill('REP');
    await page.waitForURL(/search=REP/);
    await page.reload();
    await card(page, 'reports').waitFor();
    expect(await card(page, 'api').count()).toBe(0);
    // the segmented control's radio is hidden under its label
    await page.locator('label').getByText('Plan', { exact: true }).click();
    await page.getByText('No policy matches').waitFor();
    tracked.expectClean();
  });

  it('a tenant admin changes what the plan opens, within its bounds; the data plane follows', async () => {
    const tracked = await browser.signedIn(stack.tenantAdmin);
    const { page } = tracked;
    await page.goto(policiesUrl());
    await page.getByRole('button', { name: 'Change values of api' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change api' });
    const capacity = dialog.getByRole('textbox', { name: 'Capacity' });
    await dialog.getByText(/The plan allows 1 – 50\./).waitFor();
    expect(await capacity.inputValue()).toBe('5');

    // beyond the plan's bound: the field refuses it, nothing is sent
    await capacity.fill('80');
    await dialog.getByText("At most 50 (the plan's bound)").waitFor();
    await dialog.getByRole('button', { name: 'Save the values' }).click();
    expect(await capacity.getAttribute('aria-invalid')).toBe('true');
    expect(await dialog.isVisible()).toBe(true);

    await capacity.fill('20');
    await dialog.getByRole('button', { name: 'Save the values' }).click();
    await page.getByText('Your values of api are saved.').waitFor();
    const row = paramRow(page, 'api', 'Capacity');
    await expect
      .poll(() => row.getByRole('cell').allTextContents())
      .toEqual(expect.arrayContaining(['20', 'Tenant change', '1 – 50']));
    await card(page, 'api').getByText('Changed by the tenant').waitFor();
    await card(page, 'api').getByText('20 at once, then 1 per second').waitFor();

    // the API, as the admin's session asks it through the dashboard, and the data plane
    expect(paramOf(await sessionPolicies(page), 'api', 'burst', 'capacity')).toEqual({
      name: 'capacity',
      value: 20,
      source: 'TENANT',
    });
    await expect.poll(() => burstLimit(), { timeout: 10_000 }).toBe(20);

    // back to the plan's values
    await page.getByRole('button', { name: 'Back to the plan’s values of api' }).click();
    const reset = page.getByRole('dialog', { name: 'Back to the plan’s values of api' });
    await reset.getByText('burst › Capacity: 20').waitFor();
    expect(await reset.getByText('Counters will start afresh').count()).toBe(0);
    await reset.getByRole('button', { name: 'Back to the plan’s values' }).click();
    await page.getByText('api has the plan’s values again.').waitFor();
    await expect
      .poll(() => row.getByRole('cell').allTextContents())
      .toEqual(expect.arrayContaining(['5', 'Plan']));
    expect(await card(page, 'api').getByText('Changed by the tenant').count()).toBe(0);
    expect(paramOf(await sessionPolicies(page), 'api', 'burst', 'capacity')?.value).toBe(5);
    await expect.poll(() => burstLimit(), { timeout: 10_000 }).toBe(5);
    tracked.expectClean();
  });

  it('a change of window is confirmed first, naming the rule whose counters start afresh', async () => {
    const tracked = await browser.signedIn(stack.tenantAdmin);
    const { page } = tracked;
    await page.goto(policiesUrl());
    await card(page, 'exports').getByText('100 per hour').waitFor();
    expect(await paramRow(page, 'exports', 'Window').getByRole('cell').allTextContents()).toEqual(
      expect.arrayContaining(['1 hour', 'Plan', '1 minute – 1 day']),
    );
    await page.getByRole('button', { name: 'Change values of exports' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change exports' });
    const window = dialog.getByRole('textbox', { name: 'Window', exact: true });
    expect(await window.inputValue()).toBe('1');
    // in hours: beyond the plan's day, refused on the field
    await window.fill('25');
    await dialog.getByText("At most 1 day (the plan's bound)").waitFor();
    await window.fill('2');
    await dialog.getByRole('button', { name: 'Save the values' }).click();
    await dialog.getByText('Counters will start afresh').waitFor();
    await dialog.getByText('hourly: window 1 hour → 2 hours').waitFor();
    // going back to the form sends nothing
    await dialog.getByRole('button', { name: 'Back to the form' }).click();
    await dialog.getByRole('button', { name: 'Save the values' }).click();
    await dialog.getByRole('button', { name: 'Change the window' }).click();
    const resets = page.getByRole('alert').filter({ hasText: 'These counters started afresh' });
    await resets.getByText('fixed_window per 7200000 ms').waitFor();
    expect(await resets.textContent()).toContain('exports › hourly for every identifier');
    await card(page, 'exports').getByText('100 per 2 hours').waitFor();

    // going back to the plan's window says so too
    await page.getByRole('button', { name: 'Back to the plan’s values of exports' }).click();
    const reset = page.getByRole('dialog', { name: 'Back to the plan’s values of exports' });
    await reset.getByText('hourly: window 2 hours → the plan’s window').waitFor();
    await reset.getByRole('button', { name: 'Back to the plan’s values' }).click();
    await card(page, 'exports').getByText('100 per hour').waitFor();
    tracked.expectClean();
  });

  it('a tenant admin creates, edits and deletes a policy of its own', async () => {
    const tracked = await browser.signedIn(stack.tenantAdmin);
    const { page } = tracked;
    await page.goto(policiesUrl());
    await page.getByRole('button', { name: 'New policy' }).click();
    let dialog = page.getByRole('dialog', { name: 'New policy' });
    await dialog.getByRole('textbox', { name: 'Name', exact: true }).first().fill('uploads');
    let rule = dialog.getByRole('group', { name: 'Rule 1', exact: true });
    await rule.getByRole('textbox', { name: 'Name', exact: true }).fill('per-user');
    const capacity = rule.getByRole('textbox', { name: 'Capacity', exact: true });
    await capacity.fill('0');
    await rule.getByRole('textbox', { name: 'Refill per second', exact: true }).fill('2');
    // the API's refusal, on its field
    await dialog.getByRole('button', { name: 'Create the policy' }).click();
    await rule.getByText('must be an integer from 1 to 1000000000, got 0').waitFor();
    expect(await capacity.getAttribute('aria-invalid')).toBe('true');
    await capacity.fill('10');
    await dialog.getByRole('button', { name: 'Create the policy' }).click();
    await page.getByText('uploads is created.').waitFor();
    const uploads = card(page, 'uploads');
    await uploads.getByText('10 at once, then 2 per second').waitFor();
    expect(await paramRow(page, 'uploads', 'Capacity').getByRole('cell').allTextContents()).toEqual(
      expect.arrayContaining(['Capacity', '10', 'Tenant’s own']),
    );

    // another algorithm: its counters start afresh, confirmed first
    await uploads.getByRole('button', { name: 'Edit uploads' }).click();
    dialog = page.getByRole('dialog', { name: 'Edit uploads' });
    rule = dialog.getByRole('group', { name: 'Rule 1', exact: true });
    await rule.getByRole('combobox', { name: 'Algorithm' }).selectOption('FIXED_WINDOW');
    await rule.getByRole('textbox', { name: 'Limit', exact: true }).fill('100');
    await rule.getByRole('textbox', { name: 'Window', exact: true }).fill('1');
    await rule.getByRole('combobox', { name: 'Window unit' }).selectOption('h');
    await dialog.getByRole('button', { name: 'Save the policy' }).click();
    await dialog.getByText('Counters will start afresh').waitFor();
    await dialog.getByRole('button', { name: 'Save and start them afresh' }).click();
    await page.getByText('uploads is saved.').waitFor();
    const resets = page.getByRole('alert').filter({ hasText: 'These counters started afresh' });
    expect(await resets.textContent()).toContain('uploads › per-user for every identifier');
    await uploads.getByText('100 per hour').waitFor();

    await uploads.getByRole('button', { name: 'Delete uploads' }).click();
    dialog = page.getByRole('dialog', { name: 'Delete uploads' });
    await dialog.getByRole('button', { name: 'Delete the policy' }).click();
    await page.getByText('uploads is deleted.').waitFor();
    await expect.poll(() => card(page, 'uploads').count()).toBe(0);
    expect((await sessionPolicies(page)).map((p) => p.name)).not.toContain('uploads');
    tracked.expectClean();
  });

  it('a tenant admin tries new limits in shadow, watches their would-be denials and applies them', async () => {
    await data(
      `mutation ($tenantId: ID!) {
        createPolicy(tenantId: $tenantId, input: {
          name: "searches", rules: [{ name: "per-hour", algorithm: SLIDING_WINDOW_LOG, limit: 10, windowMs: 3600000 }]
        }) { version }
      }`,
      { tenantId: stack.tenantId },
      adminToken,
    );
    // the demo key may use api and llm-tokens only: a key of the searches policy
    const { createApiKey } = await data<{ createApiKey: { secret: string } }>(
      `mutation ($tenantId: ID!) {
        createApiKey(input: { tenantId: $tenantId, name: "searches", policyNames: ["searches"] }) { secret }
      }`,
      { tenantId: stack.tenantId },
      adminToken,
    );
    const check = (identifier: string, dryRun = false) =>
      checkWith(stack, createApiKey.secret, { policy: 'searches', identifier, dryRun });
    // spend for the proposal's estimate: 5 by one identifier, once the data plane knows the key
    await expect
      .poll(async () => (await check('estimate-user')).status, { timeout: 30_000 })
      .toBe(200);
    for (let i = 0; i < 4; i++) await check('estimate-user');
    const tracked = await browser.signedIn(stack.tenantAdmin);
    const { page } = tracked;
    await page.goto(policiesUrl());
    const searches = card(page, 'searches');
    await searches.getByRole('button', { name: 'Try in shadow searches' }).click();
    const dialog = page.getByRole('dialog', { name: 'Try new limits for searches in shadow' });
    // the proposal starts as a copy of each live rule, proposing new values for it
    const candidate = dialog.getByRole('group', { name: 'Candidate rule 1', exact: true });
    expect(await candidate.getByRole('textbox', { name: 'Name', exact: true }).inputValue()).toBe(
      'per-hour-next',
    );
    expect(await candidate.getByRole('combobox', { name: 'Proposes' }).inputValue()).toBe(
      'per-hour',
    );
    await candidate.getByRole('textbox', { name: 'Limit', exact: true }).fill('3');
    // before it runs: the 5 that estimate-user spent are over the proposed 3, not the live 10
    const estimate = dialog.getByRole('table', { name: 'Against the last 15 minutes' });
    await expect
      .poll(
        () =>
          estimate
            .getByRole('row')
            .filter({ hasText: 'per-hour-next' })
            .getByRole('cell')
            .allTextContents(),
        { timeout: 30_000 },
      )
      .toEqual(['per-hour-next', '1estimate-user', 'per-hour: 0']);
    await expectAccessible(tracked, 'policy-try-in-shadow');
    await screenshot(tracked, 'policy-try-in-shadow');
    await dialog.getByRole('button', { name: 'Run in shadow' }).click();
    await page.getByText('per-hour-next run in shadow on searches.').waitFor();

    // six checks once the data plane decides the candidate: all allowed by the live 10 an hour,
    // the last three would have been denied by the proposed 3
    await expect
      .poll(async () => (await check('shadow-probe', true)).body.candidates?.map((c) => c.name), {
        timeout: 30_000,
      })
      .toEqual(['per-hour-next']);
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await check('shadow-user'));
    expect(answers.map((a) => [a.status, a.body.allowed])).toEqual(
      Array.from({ length: 6 }, () => [200, true]),
    );
    expect(answers.map((a) => a.body.candidates?.[0]?.allowed)).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
    const trial = searches.getByRole('table', { name: 'Candidates of searches' });
    const row = trial.getByRole('row').filter({ hasText: 'per-hour-next' });
    // the usage counters flush within a second or two, the panel reads them every 5 s
    await expect
      .poll(() => row.getByRole('cell').allTextContents(), { timeout: 30_000 })
      .toEqual([expect.stringContaining('per-hour-next'), 'new values for per-hour', '3', '0']);
    await searches.scrollIntoViewIfNeeded();
    await expectAccessible(tracked, 'policy-shadow-trial');
    await screenshot(tracked, 'policy-shadow-trial');

    await searches.getByRole('button', { name: 'Apply candidates of searches' }).click();
    const apply = page.getByRole('dialog', { name: 'Apply the candidates of searches?' });
    await apply.getByText('takes per-hour-next’s values: 3 in any 1 hour').waitFor();
    await apply.getByRole('button', { name: 'Apply them' }).click();
    await page.getByText('The candidates of searches are live.').waitFor();
    await expect.poll(() => trial.count()).toBe(0);
    expect(await paramRow(page, 'searches', 'Limit').getByRole('cell').allTextContents()).toEqual(
      expect.arrayContaining(['Limit', '3']),
    );
    // the live rule kept its counter (a sliding log: no window boundary to pass meanwhile): the
    // user who spent 6 in the last hour is over the new 3 at once
    await expect
      .poll(
        async () => {
          const { body } = await check('shadow-user', true);
          return [body.allowed, body.deniedBy, body.candidates];
        },
        { timeout: 30_000 },
      )
      .toEqual([false, 'per-hour', undefined]);
    tracked.expectClean();
  });

  it('a tenant admin tries values of a plan policy in shadow, for its checks only, and applies them as its change', async () => {
    const check = (identifier: string, dryRun = false) =>
      checkWith(stack, stack.apiKey, { policy: 'api', identifier, dryRun });
    // spend for the proposal's estimate
    for (let i = 0; i < 3; i++) expect((await check('plan-estimate-user')).body.allowed).toBe(true);
    const tracked = await browser.signedIn(stack.tenantAdmin);
    const { page } = tracked;
    await page.goto(policiesUrl());
    const api = card(page, 'api');
    await api.getByRole('button', { name: 'Try in shadow api' }).click();
    const dialog = page.getByRole('dialog', { name: 'Try new values for api in shadow' });
    const capacity = dialog.getByRole('textbox', { name: 'Capacity' });
    expect(await capacity.inputValue()).toBe('5');
    // the same bounds as a change of values
    await capacity.fill('80');
    await dialog.getByText("At most 50 (the plan's bound)").waitFor();
    await capacity.fill('2');
    // before it runs, replayed against what plan-estimate-user spent: its 3 in one minute are
    // one a second to a bucket refilling 1 a second (the replay's resolution), within 2 as well
    const estimate = dialog.getByRole('table', { name: 'Against the last 15 minutes' });
    await expect
      .poll(
        () =>
          estimate
            .getByRole('row')
            .filter({ hasText: 'burst-trial' })
            .getByRole('cell')
            .allTextContents(),
        { timeout: 30_000 },
      )
      .toEqual(['burst-trial', '0', 'burst: 0']);
    await dialog.getByRole('button', { name: 'Run in shadow' }).click();
    await page.getByText('burst-trial run in shadow on api, for your checks only.').waitFor();

    // the data plane decides the tenant's candidate beside the plan's burst of 5: four quick
    // checks are allowed, and the proposed 2 would have denied some of them
    await expect
      .poll(
        async () => (await check('plan-shadow-probe', true)).body.candidates?.map((c) => c.name),
        {
          timeout: 30_000,
        },
      )
      .toEqual(['burst-trial']);
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await check('plan-shadow-user'));
    expect(answers.map((a) => [a.status, a.body.allowed])).toEqual(
      Array.from({ length: 4 }, () => [200, true]),
    );
    const wouldDeny = answers.filter((a) => a.body.candidates?.[0]?.allowed === false).length;
    expect(wouldDeny).toBeGreaterThan(0);
    const trial = api.getByRole('table', { name: 'Candidates of api' });
    const row = trial.getByRole('row').filter({ hasText: 'burst-trial' });
    await expect
      .poll(() => row.getByRole('cell').allTextContents(), { timeout: 30_000 })
      .toEqual([
        expect.stringContaining('burst-trial'),
        'new values for burst',
        String(wouldDeny),
        '0',
      ]);
    await api.scrollIntoViewIfNeeded();
    await screenshot(tracked, 'policy-plan-shadow-trial');

    await api.getByRole('button', { name: 'Apply candidates of api' }).click();
    const apply = page.getByRole('dialog', { name: 'Apply the candidates of api?' });
    await apply.getByText('These become your values of the plan’s rules').waitFor();
    await apply.getByText('takes burst-trial’s values: 2 at once, then 1 per second').waitFor();
    await apply.getByRole('button', { name: 'Apply them' }).click();
    await page.getByText('Your candidates for api are now your values of it.').waitFor();
    await expect.poll(() => trial.count()).toBe(0);
    await expect
      .poll(() => paramRow(page, 'api', 'Capacity').getByRole('cell').allTextContents())
      .toEqual(expect.arrayContaining(['2', 'Tenant change']));
    expect(paramOf(await sessionPolicies(page), 'api', 'burst', 'capacity')?.value).toBe(2);
    await expect.poll(() => burstLimit(), { timeout: 10_000 }).toBe(2);
    tracked.expectClean();
  });

  it('a viewer reads the policies without a write button', async () => {
    await data(
      `mutation ($tenantId: ID!) {
        changePlanPolicy(input: { tenantId: $tenantId, policy: "api", rules: [{ name: "burst", capacity: 12 }] }) { version }
      }`,
      { tenantId: stack.tenantId },
      adminToken,
    );
    const tracked = await browser.signedIn(viewer);
    const { page } = tracked;
    await page.goto(policiesUrl());
    const row = paramRow(page, 'api', 'Capacity');
    await row.getByText('Tenant change').waitFor();
    expect(await row.getByRole('cell').allTextContents()).toEqual(
      expect.arrayContaining(['12', 'Tenant change', '1 – 50']),
    );
    expect(await page.getByRole('button', { name: /^Change values of/ }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Back to the plan’s values/ }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Try in shadow/ }).count()).toBe(0);
    await card(page, 'reports').getByText('30 in any 1 minute').waitFor();
    expect(await page.getByRole('button', { name: 'New policy' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^(Edit|Delete) reports$/ }).count()).toBe(0);
    tracked.expectClean();
  });

  it.each<Scheme>(['light', 'dark'])(
    'the page and its dialogs, accessible (%s)',
    async (scheme) => {
      const tracked = await browser.signedIn(stack.tenantAdmin, scheme);
      const { page } = tracked;
      await page.goto(policiesUrl());
      await card(page, 'api').getByText('Changed by the tenant').waitFor();
      await expectAccessible(tracked, 'policies');
      await screenshot(tracked, 'policies');
      // reports' candidate runs in shadow: its trial panel, in this theme
      await card(page, 'reports')
        .getByRole('table', { name: 'Candidates of reports' })
        .scrollIntoViewIfNeeded();
      await screenshot(tracked, 'policies-trial');

      await page.getByRole('button', { name: 'Change values of api' }).click();
      const dialog = page.getByRole('dialog', { name: 'Change api' });
      await dialog.getByRole('textbox', { name: 'Capacity' }).fill('80');
      await dialog.getByText("At most 50 (the plan's bound)").waitFor();
      await expectAccessible(tracked, 'policy-change');
      await screenshot(tracked, 'policy-change');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });

      await page.getByRole('button', { name: 'Try in shadow api' }).click();
      const trying = page.getByRole('dialog', { name: 'Try new values for api in shadow' });
      await trying.getByRole('textbox', { name: 'Capacity' }).fill('8');
      await trying
        .getByRole('table', { name: 'Against the last 15 minutes' })
        .getByRole('row')
        .filter({ hasText: 'burst-trial' })
        .waitFor({ timeout: 30_000 });
      await expectAccessible(tracked, 'policy-plan-try');
      await screenshot(tracked, 'policy-plan-try');
      await page.keyboard.press('Escape');
      await trying.waitFor({ state: 'detached' });

      await page.getByRole('button', { name: 'Change values of exports' }).click();
      const windowDialog = page.getByRole('dialog', { name: 'Change exports' });
      await windowDialog.getByRole('combobox', { name: 'Window unit' }).selectOption('min');
      await expectAccessible(tracked, 'policy-change-window');
      await screenshot(tracked, 'policy-change-window');
      await windowDialog.getByRole('button', { name: 'Save the values' }).click();
      await windowDialog.getByText('hourly: window 1 hour → 1 minute').waitFor();
      await expectAccessible(tracked, 'policy-window-confirm');
      await screenshot(tracked, 'policy-window-confirm');
      await page.keyboard.press('Escape');
      await windowDialog.waitFor({ state: 'detached' });

      await page.getByRole('button', { name: 'Back to the plan’s values of api' }).click();
      const reset = page.getByRole('dialog', { name: 'Back to the plan’s values of api' });
      await reset.getByText('burst › Capacity: 12').waitFor();
      await expectAccessible(tracked, 'policy-reset');
      await screenshot(tracked, 'policy-reset');
      await page.keyboard.press('Escape');
      await reset.waitFor({ state: 'detached' });

      await page.getByRole('button', { name: 'Edit reports' }).click();
      const editor = page.getByRole('dialog', { name: 'Edit reports' });
      await editor.getByRole('group', { name: 'Candidate rule 1', exact: true }).waitFor();
      await expectAccessible(tracked, 'policy-editor');
      await screenshot(tracked, 'policy-editor');
      await page.keyboard.press('Escape');
      await editor.waitFor({ state: 'detached' });

      await page.getByRole('button', { name: 'Delete reports' }).click();
      await page.getByRole('dialog', { name: 'Delete reports' }).waitFor();
      await expectAccessible(tracked, 'policy-delete');
      await screenshot(tracked, 'policy-delete');
      tracked.expectClean();
    },
  );
});
