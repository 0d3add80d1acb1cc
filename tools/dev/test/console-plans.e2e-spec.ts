import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ConsoleBrowser,
  expectAccessible,
  screenshot,
  type Scheme,
} from './support/console-browser';
import { startConsoleStack, type ConsoleStack } from './support/console-stack';
import {
  bearerLogin,
  openPlan as openPlanIn,
  policyEditor,
  storedTemplateRules,
} from './support/console-steps';

// The operators' plans in the console, on the real stack in Chromium: an operator creates a plan
// and a template through the policy editor, changes a rule's algorithm (confirmed first: its
// counters start afresh), edits the plan, changes a window of the demo tenant's plan (the counters
// reset are listed after), cannot delete a plan with tenants and deletes one without. A tenant
// admin is refused the pages. Every page and the editor checked by axe-core and photographed in
// both themes. (A template with a rule of every algorithm, and a tenant on it, is the journey's:
// console-journey.e2e-spec.ts.)
// each test drives several pages, axe-core on many: a budget, as the access spec's, that a
// busy machine cannot exhaust (a test that waits in vain fails on its own shorter deadline)
describe('the console’s plans', { timeout: 150_000 }, () => {
  let stack: ConsoleStack;
  let browser: ConsoleBrowser;
  let operatorToken: string;
  const { rule, fill, algorithm } = policyEditor;
  const openPlan = (page: Page, name: string) => openPlanIn(page, stack.dashboard, name);
  /** The id of the plan the page shows (`/plans/<id>`). */
  const planId = (page: Page) =>
    decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');

  beforeAll(async () => {
    stack = await startConsoleStack();
    browser = await ConsoleBrowser.launch(stack.dashboard);
    operatorToken = await bearerLogin(stack, stack.operator);
  }, 180_000);
  afterAll(async () => {
    // the stack is stopped even when the browser's close fails (a crashed Chromium)
    try {
      await browser?.close();
    } finally {
      await stack?.stop();
    }
  });

  it('an operator creates a plan and a template, then changes its algorithm and the plan', async () => {
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
    await page.getByRole('heading', { name: 'Team Plus', level: 1 }).waitFor();
    await page.getByText('No policy templates yet').waitFor();
    await page.getByText('(the plan’s)').waitFor();

    await page.getByRole('button', { name: 'New template' }).click();
    dialog = page.getByRole('dialog', { name: 'New policy template' });
    await dialog.getByRole('textbox', { name: 'Name', exact: true }).first().fill('everything');
    const burst = await rule(dialog, 1);
    await fill(burst, 'Name', 'burst');
    await fill(burst, 'Capacity', '5');
    await fill(burst, 'Refill per second', '1');
    await burst.getByLabel('Tenants may change the capacity').check();
    await fill(burst, 'Lowest capacity', '1');
    await fill(burst, 'Highest capacity', '50');
    await burst.getByText('5 at once, then 1 per second').waitFor();
    await dialog.getByRole('button', { name: 'Create the template' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'The template everything is created.' })
      .waitFor();
    const rules = page.getByRole('table', { name: 'Rules of everything' });
    const reading = async (name: string) =>
      rules.getByRole('row').filter({ hasText: name }).getByRole('cell').nth(2).textContent();
    expect(await reading('burst')).toBe('5 at once, then 1 per second');
    await rules
      .getByRole('row')
      .filter({ hasText: 'burst' })
      .getByText('capacity 1 to 50')
      .waitFor();

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
    expect(
      (await storedTemplateRules(stack, operatorToken, planId(page), 'everything'))[0],
    ).toMatchObject({
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

  it('an operator tries new limits for a template in shadow, discards them, then applies others', async () => {
    const tracked = await browser.signedIn(stack.operator);
    const { page } = tracked;
    await openPlan(page, 'Team Plus');
    const rules = page.getByRole('table', { name: 'Rules of everything' });
    const proposeCapacity = async (capacity: string) => {
      await page.getByRole('button', { name: 'Try in shadow for the template everything' }).click();
      const dialog = page.getByRole('dialog', { name: 'Try new limits for everything in shadow' });
      await dialog.getByText('A template’s candidates run for every tenant on the plan.').waitFor();
      const candidate = dialog.getByRole('group', { name: 'Candidate rule 1', exact: true });
      expect(await candidate.getByRole('combobox', { name: 'Proposes' }).inputValue()).toBe(
        'burst',
      );
      await fill(candidate, 'Queue capacity', capacity);
      await dialog.getByRole('button', { name: 'Run in shadow' }).click();
      await page.getByText('burst-next run in shadow on everything for 0 tenants.').waitFor();
      await rules.getByText('candidate for burst').waitFor();
    };

    await proposeCapacity('2');
    await page.getByRole('button', { name: 'Discard candidates of everything' }).click();
    let dialog = page.getByRole('dialog', { name: 'Discard the candidates of everything?' });
    await dialog.getByRole('button', { name: 'Discard them' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'The candidates of everything are discarded.' })
      .waitFor();
    await expect.poll(() => rules.getByText('candidate for burst').count()).toBe(0);

    await proposeCapacity('3');
    await page.getByRole('button', { name: 'Apply candidates of everything' }).click();
    dialog = page.getByRole('dialog', { name: 'Apply the candidates of everything?' });
    await dialog.getByText('These become live rules for every tenant on the plan').waitFor();
    await dialog
      .getByText('takes burst-next’s values: queues up to 3, leaving at 1 per second')
      .waitFor();
    await dialog.getByRole('button', { name: 'Apply them' }).click();
    const applied = page
      .getByRole('alert')
      .filter({ hasText: 'The candidates of everything are live.' });
    await applied.getByText('No tenant’s policies changed.').waitFor();
    // the template's burst has the proposed capacity, its tenants' bounds kept, no candidate left
    expect(await storedTemplateRules(stack, operatorToken, planId(page), 'everything')).toEqual([
      expect.objectContaining({
        name: 'burst',
        candidate: false,
        algorithm: 'LEAKY_BUCKET',
        capacity: 3,
        leakPerSecond: 1,
        tenantBounds: [{ param: 'capacity', min: 1, max: 50 }],
      }),
    ]);
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
