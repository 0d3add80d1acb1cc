import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ConsoleBrowser,
  expectAccessible,
  screenshot,
  type Scheme,
} from './support/console-browser';
import { startConsoleStack, type ConsoleStack } from './support/console-stack';

interface GraphqlAnswer {
  data?: Record<string, unknown>;
  errors?: { message: string; extensions?: { code?: string } }[];
}

interface StoredRule {
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

// The operators' plans in the console, on the real stack in Chromium: an operator creates a plan,
// gives it a template with a rule of every algorithm through the policy editor (a bad value
// refused on its field first), reads each rule in plain words, finds the values stored by the
// API, changes a rule's algorithm (confirmed first: its counters start afresh), changes a window
// of the demo tenant's plan (the counters reset are listed after), cannot delete a plan with
// tenants and deletes one without. A tenant admin is refused the pages. Every page and the editor
// checked by axe-core and photographed in both themes.
describe('the console’s plans', () => {
  let stack: ConsoleStack;
  let browser: ConsoleBrowser;
  let operatorToken: string;

  /** The control plane's GraphQL API, as a script would call it (a bearer session). */
  const graphql = async (
    query: string,
    variables: Record<string, unknown>,
    token?: string,
  ): Promise<GraphqlAnswer> => {
    const response = await fetch(`${stack.controlPlane}/graphql`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(token && { authorization: `Bearer ${token}` }),
      },
      body: JSON.stringify({ query, variables }),
    });
    return (await response.json()) as GraphqlAnswer;
  };
  const data = async <T>(query: string, variables: Record<string, unknown>, token?: string) => {
    const answer = await graphql(query, variables, token);
    expect(answer.errors).toBeUndefined();
    return answer.data as T;
  };

  /** The rules of a plan's templates, as the API stores them. */
  const storedRules = async (planId: string, template: string) => {
    const { plan } = await data<{ plan: { policies: { name: string; rules: StoredRule[] }[] } }>(
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
      operatorToken,
    );
    return plan.policies.find((p) => p.name === template)?.rules ?? [];
  };

  beforeAll(async () => {
    stack = await startConsoleStack();
    browser = await ConsoleBrowser.launch(stack.dashboard);
    operatorToken = (
      await data<{ login: { token: string } }>(
        `mutation ($email: String!, $password: String!) {
          login(input: { email: $email, password: $password, transport: BEARER }) { token }
        }`,
        { email: stack.operator.email, password: stack.operator.password },
      )
    ).login.token;
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  /** The fieldset of the editor's rule `n` (from 1), after adding it if asked. */
  const rule = async (dialog: Locator, n: number, add = false) => {
    if (add) await dialog.getByRole('button', { name: 'Add a rule' }).click();
    const group = dialog.getByRole('group', { name: `Rule ${n}`, exact: true });
    await group.waitFor();
    return group;
  };
  const fill = (group: Locator, label: string, value: string) =>
    group.getByRole('textbox', { name: label, exact: true }).fill(value);
  const algorithm = (group: Locator, value: string) =>
    group.getByRole('combobox', { name: 'Algorithm' }).selectOption(value);
  const unit = (group: Locator, label: string, value: string) =>
    group.getByRole('combobox', { name: `${label} unit` }).selectOption(value);

  /** Opens a plan's page from the list. */
  const openPlan = async (page: Page, name: string) => {
    await page.goto(`${stack.dashboard}/plans?search=${encodeURIComponent(name)}`);
    await page.getByRole('link', { name, exact: true }).click();
    await page.getByRole('heading', { name, level: 1 }).waitFor();
  };

  it('an operator creates a plan and a template with a rule of every algorithm', async () => {
    const tracked = await browser.signedIn(stack.operator);
    const { page } = tracked;
    await page.goto(`${stack.dashboard}/plans`);
    await page.getByRole('heading', { name: 'Plans', level: 1 }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Main' });
    const links = await nav.getByRole('link').allTextContents();
    expect(links.slice(0, 2)).toEqual(['Tenants', 'Plans']);
    // the seeded plans: their templates and tenants
    const free = page.getByRole('row').filter({ hasText: 'Free' });
    await free.getByText('llm-tokens').waitFor();
    expect(await free.getByRole('cell').last().textContent()).toBe('1');
    // searched, in the URL
    await page.getByRole('textbox', { name: 'Search' }).fill('pro');
    await page.waitForURL(/search=pro/);
    await expect.poll(() => page.getByRole('row').count()).toBe(2);

    await page.getByRole('button', { name: 'New plan' }).click();
    let dialog = page.getByRole('dialog', { name: 'New plan' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Team Plus');
    expect(await dialog.getByRole('textbox', { name: 'Slug' }).inputValue()).toBe('team-plus');
    await dialog.getByRole('textbox', { name: 'Description' }).fill('For small teams');
    await dialog.getByRole('textbox', { name: 'Sliding log cap' }).fill('5000');
    await dialog.getByRole('button', { name: 'Create the plan' }).click();
    await page.waitForURL(/\/plans\/pln_/);
    const planId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');
    await page.getByRole('heading', { name: 'Team Plus', level: 1 }).waitFor();
    await page.getByText('No policy templates yet').waitFor();
    await page.getByText('(the plan’s)').waitFor();

    await page.getByRole('button', { name: 'New template' }).click();
    dialog = page.getByRole('dialog', { name: 'New policy template' });
    await dialog.getByRole('textbox', { name: 'Name', exact: true }).first().fill('everything');

    const burst = await rule(dialog, 1);
    await fill(burst, 'Name', 'burst');
    await fill(burst, 'Capacity', '0');
    await fill(burst, 'Refill per second', '1');
    await burst.getByLabel('Tenants may change the capacity').check();
    await fill(burst, 'Lowest capacity', '1');
    await fill(burst, 'Highest capacity', '50');

    const queue = await rule(dialog, 2, true);
    await fill(queue, 'Name', 'queue');
    await algorithm(queue, 'LEAKY_BUCKET');
    await fill(queue, 'Queue capacity', '10');
    await fill(queue, 'Leak per second', '2');
    await queue.getByText('queues up to 10, leaving at 2 per second').waitFor();

    const daily = await rule(dialog, 3, true);
    await fill(daily, 'Name', 'daily');
    await algorithm(daily, 'FIXED_WINDOW');
    await fill(daily, 'Limit', '1000');
    await daily.getByLabel('A calendar day or month, in a time zone').check();
    const zone = daily.getByRole('combobox', { name: 'Time zone' });
    await zone.fill('Europe/Par');
    await page.getByRole('option', { name: 'Europe/Paris' }).click();
    await daily.getByText('1,000 per calendar day (Europe/Paris)').waitFor();

    const log = await rule(dialog, 4, true);
    await fill(log, 'Name', 'log');
    await algorithm(log, 'SLIDING_WINDOW_LOG');
    await fill(log, 'Limit', '100');
    await fill(log, 'Window', '1');
    await unit(log, 'Window', 'min');
    await log.getByText('100 in any 1 minute').waitFor();

    const counter = await rule(dialog, 5, true);
    await fill(counter, 'Name', 'counter');
    await algorithm(counter, 'SLIDING_WINDOW_COUNTER');
    await fill(counter, 'Limit', '500');
    await fill(counter, 'Window', '1');
    await unit(counter, 'Window', 'h');
    await counter.getByText('500 in any 1 hour').waitFor();

    const smooth = await rule(dialog, 6, true);
    await fill(smooth, 'Name', 'smooth');
    await algorithm(smooth, 'GCRA');
    await fill(smooth, 'Limit', '10');
    await fill(smooth, 'Period', '1');
    await smooth.getByText('10 per second, spaced evenly, up to 10 at once').waitFor();
    await fill(smooth, 'Burst', '3');
    await smooth.getByText('10 per second, spaced evenly, up to 3 at once').waitFor();

    const inFlight = await rule(dialog, 7, true);
    await fill(inFlight, 'Name', 'in-flight');
    await algorithm(inFlight, 'CONCURRENCY');
    await fill(inFlight, 'In flight', '10');
    await fill(inFlight, 'Lease TTL', '1');
    await unit(inFlight, 'Lease TTL', 'min');
    await inFlight.getByText('10 at once, each held up to 1 minute').waitFor();

    // a capacity of 0: the API refuses it, on its field
    const create = dialog.getByRole('button', { name: 'Create the template' });
    await create.click();
    await dialog.getByText('Check the fields marked below.').waitFor();
    await burst.getByText('must be an integer from 1 to 1000000000, got 0').waitFor();
    const capacity = burst.getByRole('textbox', { name: 'Capacity', exact: true });
    expect(await capacity.getAttribute('aria-invalid')).toBe('true');
    await capacity.fill('5');
    await burst.getByText('5 at once, then 1 per second').waitFor();
    await create.click();

    await page
      .getByRole('alert')
      .filter({ hasText: 'The template everything is created.' })
      .waitFor();
    const rules = page.getByRole('table', { name: 'Rules of everything' });
    const reading = async (name: string) =>
      rules.getByRole('row').filter({ hasText: name }).getByRole('cell').nth(2).textContent();
    expect(await reading('burst')).toBe('5 at once, then 1 per second');
    expect(await reading('queue')).toBe('queues up to 10, leaving at 2 per second');
    expect(await reading('daily')).toBe('1,000 per calendar day (Europe/Paris)');
    expect(await reading('log')).toBe('100 in any 1 minute');
    expect(await reading('counter')).toBe('500 in any 1 hour');
    expect(await reading('smooth')).toBe('10 per second, spaced evenly, up to 3 at once');
    expect(await reading('in-flight')).toBe('10 at once, each held up to 1 minute');
    await rules
      .getByRole('row')
      .filter({ hasText: 'burst' })
      .getByText('capacity 1 to 50')
      .waitFor();

    // what the API stores
    const stored = await storedRules(planId, 'everything');
    const blank = {
      candidate: false,
      capacity: null,
      refillPerSecond: null,
      leakPerSecond: null,
      limit: null,
      windowMs: null,
      periodMs: null,
      burst: null,
      leaseTtlMs: null,
      calendar: null,
      tenantBounds: [],
    };
    expect(stored).toEqual([
      {
        ...blank,
        name: 'burst',
        algorithm: 'TOKEN_BUCKET',
        capacity: 5,
        refillPerSecond: 1,
        tenantBounds: [{ param: 'capacity', min: 1, max: 50 }],
      },
      { ...blank, name: 'queue', algorithm: 'LEAKY_BUCKET', capacity: 10, leakPerSecond: 2 },
      {
        ...blank,
        name: 'daily',
        algorithm: 'FIXED_WINDOW',
        limit: 1000,
        calendar: { unit: 'DAY', timeZone: 'Europe/Paris' },
      },
      { ...blank, name: 'log', algorithm: 'SLIDING_WINDOW_LOG', limit: 100, windowMs: 60_000 },
      {
        ...blank,
        name: 'counter',
        algorithm: 'SLIDING_WINDOW_COUNTER',
        limit: 500,
        windowMs: 3_600_000,
      },
      { ...blank, name: 'smooth', algorithm: 'GCRA', limit: 10, periodMs: 1000, burst: 3 },
      { ...blank, name: 'in-flight', algorithm: 'CONCURRENCY', limit: 10, leaseTtlMs: 60_000 },
    ]);

    // another algorithm for a rule: its counters start afresh, said before saving
    await page.getByRole('button', { name: 'Edit the template everything' }).click();
    dialog = page.getByRole('dialog', { name: 'Edit the template everything' });
    const edited = await rule(dialog, 1);
    await algorithm(edited, 'LEAKY_BUCKET');
    await fill(edited, 'Leak per second', '1');
    await edited.getByText('queues up to 5, leaving at 1 per second').waitFor();
    await dialog.getByRole('button', { name: 'Save the template' }).click();
    await dialog.getByText('Counters will start afresh').waitFor();
    await dialog.getByText('burst: token bucket → leaky bucket').waitFor();
    await dialog.getByRole('button', { name: 'Save and start them afresh' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'The template everything is saved.' })
      .waitFor();
    // the page reads the template again
    await expect
      .poll(() => reading('burst'), { timeout: 10_000 })
      .toBe('queues up to 5, leaving at 1 per second');
    expect((await storedRules(planId, 'everything'))[0]).toMatchObject({
      name: 'burst',
      algorithm: 'LEAKY_BUCKET',
      capacity: 5,
      leakPerSecond: 1,
      tenantBounds: [{ param: 'capacity', min: 1, max: 50 }],
    });

    // the plan itself
    await page.getByRole('button', { name: 'Edit the plan' }).click();
    dialog = page.getByRole('dialog', { name: 'Edit the plan' });
    await dialog.getByRole('textbox', { name: 'Sliding log cap' }).fill('');
    await dialog.getByRole('textbox', { name: 'Description' }).fill('For teams of up to 20');
    await dialog.getByRole('button', { name: 'Save the plan' }).click();
    await page.getByText('team-plus · For teams of up to 20').waitFor();
    await page.getByText('(the platform’s)').waitFor();
    tracked.expectClean();
  });

  it('a window change of the demo tenant’s plan lists the counters it starts afresh', async () => {
    const tracked = await browser.signedIn(stack.operator);
    const { page } = tracked;
    await openPlan(page, 'Free');
    await page.getByRole('button', { name: 'Edit the template api' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit the template api' });
    const daily = await rule(dialog, 2);
    await daily.getByLabel('A calendar day or month, in a time zone').check();
    const zone = daily.getByRole('combobox', { name: 'Time zone' });
    await zone.fill('Europe/Berl');
    await page.getByRole('option', { name: 'Europe/Berlin' }).click();
    await dialog.getByRole('button', { name: 'Save the template' }).click();
    await dialog
      .getByText('daily: fixed window per 1 day → fixed window per calendar day')
      .waitFor();
    await dialog.getByRole('button', { name: 'Save and start them afresh' }).click();
    const saved = page.getByRole('alert').filter({ hasText: 'The template api is saved.' });
    await saved.getByText('Republished for 1 tenant.').waitFor();
    const reset = page.getByRole('alert').filter({ hasText: 'These counters started afresh' });
    await reset.getByText('fixed_window per calendar day').waitFor();
    expect(await reset.textContent()).toContain('api › daily for every identifier');
    tracked.expectClean();
  });

  it('deletes a plan without tenants, and shows why one with tenants cannot be', async () => {
    const tracked = await browser.signedIn(stack.operator);
    const { page } = tracked;
    await openPlan(page, 'Free');
    await page.getByRole('button', { name: 'Delete the plan' }).click();
    let confirm = page.getByRole('dialog', { name: 'Delete the plan Free' });
    await confirm.getByLabel('Type free to confirm').fill('free');
    await confirm.getByRole('button', { name: 'Delete the plan' }).click();
    await confirm
      .getByRole('alert')
      .getByText('1 tenant(s) are on this plan: move them to another plan first.')
      .waitFor();
    await page.keyboard.press('Escape');

    await openPlan(page, 'Team Plus');
    await page.getByRole('button', { name: 'Delete the plan' }).click();
    confirm = page.getByRole('dialog', { name: 'Delete the plan Team Plus' });
    const remove = confirm.getByRole('button', { name: 'Delete the plan' });
    expect(await remove.isDisabled()).toBe(true);
    await confirm.getByLabel('Type team-plus to confirm').fill('team-plus');
    await remove.click();
    await page.waitForURL(`${stack.dashboard}/plans`);
    await page.getByRole('link', { name: 'Free', exact: true }).waitFor();
    expect(await page.getByRole('link', { name: 'Team Plus' }).count()).toBe(0);
    tracked.expectClean();
  });

  it('a tenant admin gets no Plans entry and a refusal page at /plans', async () => {
    const tracked = await browser.signedIn(stack.tenantAdmin);
    const { page } = tracked;
    await page.getByRole('heading', { name: 'Demo Inc.' }).waitFor();
    const links = await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link')
      .allTextContents();
    expect(links).not.toContain('Plans');
    await page.goto(`${stack.dashboard}/plans`);
    await page.getByRole('heading', { name: 'Not allowed' }).waitFor();
    expect(await page.getByRole('table').count()).toBe(0);
    tracked.expectClean();
  });

  it.each<Scheme>(['light', 'dark'])(
    'the plans pages and the editor, accessible (%s)',
    async (scheme) => {
      const tracked = await browser.signedIn(stack.operator, scheme);
      const { page } = tracked;
      await page.goto(`${stack.dashboard}/plans`);
      await page.getByRole('link', { name: 'Free', exact: true }).waitFor();
      await expectAccessible(tracked, 'plans');
      await screenshot(tracked, 'plans');

      await openPlan(page, 'Free');
      await page.getByRole('table', { name: 'Rules of api' }).waitFor();
      await expectAccessible(tracked, 'plan');
      await screenshot(tracked, 'plan');

      await page.getByRole('button', { name: 'Edit the template api' }).click();
      const dialog = page.getByRole('dialog', { name: 'Edit the template api' });
      await (await rule(dialog, 1)).getByText('5 at once, then 1 per second').waitFor();
      await expectAccessible(tracked, 'plan-template-editor');
      await screenshot(tracked, 'plan-template-editor');
      // its rules, below the settings
      await dialog.getByRole('group', { name: 'Rule 1', exact: true }).scrollIntoViewIfNeeded();
      await screenshot(tracked, 'plan-template-editor-rules');
      tracked.expectClean();
    },
  );
});
