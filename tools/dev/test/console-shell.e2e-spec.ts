import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DemoUser } from '../src/seed';
import {
  ConsoleBrowser,
  expectAccessible,
  screenshot,
  type Scheme,
} from './support/console-browser';
import { startConsoleStack, type ConsoleStack } from './support/console-stack';
import { bearerLogin, graphqlData } from './support/console-steps';
import { signIn } from './support/sign-in';

// The console's shell on the real stack, in Chromium: signing in and out, the navigation each
// role gets, refusals, the operators' tenant list; every page checked by axe-core and
// photographed in both themes.
// each test drives several pages, axe-core on many: a budget, as the access spec's, that a
// busy machine cannot exhaust (a test that waits in vain fails on its own shorter deadline)
describe('the console shell', { timeout: 150_000 }, () => {
  let stack: ConsoleStack;
  let browser: ConsoleBrowser;

  beforeAll(async () => {
    stack = await startConsoleStack();
    browser = await ConsoleBrowser.launch(stack.dashboard);
  }, 180_000);
  afterAll(async () => {
    // the stack is stopped even when the browser's close fails (a crashed Chromium)
    try {
      await browser?.close();
    } finally {
      await stack?.stop();
    }
  });

  it.each<Scheme>(['light', 'dark'])('the pages before a session (%s)', async (scheme) => {
    const tracked = await browser.open(scheme);
    const { page } = tracked;
    await page.goto(`${stack.dashboard}/tenants`);
    await page.waitForURL(/\/sign-in\?next=%2Ftenants/);
    // the console asked who is signed in and was told: nobody
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await expectAccessible(tracked, 'sign-in');
    await screenshot(tracked, 'sign-in');

    await page.getByLabel(/^Email/).fill(stack.operator.email);
    await page.getByLabel(/^Password/).fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect
      .poll(() => page.getByRole('alert', { name: 'Could not sign in' }).textContent())
      .toContain('Invalid email or password.');
    await screenshot(tracked, 'sign-in-refused');

    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    await expectAccessible(tracked, 'forgot-password');
    await screenshot(tracked, 'forgot-password');
    tracked.expectClean();
  });

  it.each<Scheme>(['light', 'dark'])(
    'an operator signs in to the tenant list, opens a tenant and their account (%s)',
    async (scheme) => {
      const tracked = await browser.open(scheme);
      const { page } = tracked;
      await page.goto(`${stack.dashboard}/tenants`);
      await page.waitForURL(/\/sign-in/);
      await page.getByLabel(/^Email/).fill(stack.operator.email);
      await page.getByLabel(/^Password/).fill(stack.operator.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      // back where it was going
      await page.waitForURL(`${stack.dashboard}/tenants`);
      await page.getByRole('link', { name: 'Demo Inc.' }).waitFor();
      const nav = page.getByRole('navigation', { name: 'Main' });
      // each operator page adds its entry; the tenant list comes first
      expect((await nav.getByRole('link').allTextContents())[0]).toBe('Tenants');
      await expectAccessible(tracked, 'tenants');
      await screenshot(tracked, 'tenants');

      await page.getByRole('link', { name: 'Demo Inc.' }).click();
      await page.getByRole('heading', { name: 'Demo Inc.' }).waitFor();
      await page.getByText(/version \d+/).waitFor();
      // its live traffic, once the first snapshot came
      await page.getByText(/^In total: /).waitFor();
      await expectAccessible(tracked, 'tenant');
      await screenshot(tracked, 'tenant');

      await page.getByRole('button', { name: /^Account of/ }).click();
      await page.getByRole('menuitem', { name: 'Account and password' }).click();
      await page.getByRole('heading', { name: 'Your account' }).waitFor();
      // the user menu closes with a transition: axe would read its emptied dropdown
      await page.getByRole('menu').waitFor({ state: 'hidden' });
      await expectAccessible(tracked, 'account');
      await screenshot(tracked, 'account');
      tracked.expectClean();
    },
  );

  it('an operator creates a tenant, finds it by search, suspends and deletes it', async () => {
    const tracked = await browser.signedIn(stack.operator);
    const { page } = tracked;
    await page.goto(`${stack.dashboard}/tenants`);
    await page.getByRole('button', { name: 'New tenant' }).click();
    const dialog = page.getByRole('dialog', { name: 'New tenant' });
    await dialog.getByLabel(/^Name/).fill('Acme Robotics');
    expect(await dialog.getByLabel(/^Slug/).inputValue()).toBe('acme-robotics');
    await dialog.getByRole('button', { name: 'Create the tenant' }).click();
    await page.getByRole('heading', { name: 'Acme Robotics' }).waitFor();

    await page.goto(`${stack.dashboard}/tenants?search=acme`);
    await expect.poll(() => page.getByRole('row').count()).toBe(2);
    await page.getByRole('button', { name: 'More actions for Acme Robotics' }).click();
    await page.getByRole('menuitem', { name: 'Suspend' }).click();
    await page.getByText('Acme Robotics is suspended.').waitFor();
    await page.goto(`${stack.dashboard}/tenants?status=SUSPENDED`);
    await page.getByRole('link', { name: 'Acme Robotics' }).waitFor();

    await page.getByRole('button', { name: 'More actions for Acme Robotics' }).click();
    await page.getByRole('menuitem', { name: 'Delete…' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Acme Robotics' });
    const remove = confirm.getByRole('button', { name: 'Delete the tenant' });
    expect(await remove.isDisabled()).toBe(true);
    await confirm.getByLabel('Type acme-robotics to confirm').fill('acme-robotics');
    await remove.click();
    await page.getByText('No tenant matches').waitFor();
    tracked.expectClean();
  });

  it('a tenant admin gets the tenant’s navigation, and a refusal page for an operator URL', async () => {
    const tracked = await browser.signedIn(stack.tenantAdmin);
    const { page } = tracked;
    await page.waitForURL(`${stack.dashboard}/t/${stack.tenantId}`);
    await page.getByRole('heading', { name: 'Demo Inc.' }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Main' });
    // the tenant's pages, none of the platform's
    const links = await nav.getByRole('link').allTextContents();
    expect(links.slice(0, 2)).toEqual(['Overview', 'Policies']);
    expect(links).toEqual(expect.arrayContaining(['API keys', 'Members']));
    expect(links).not.toContain('Tenants');
    expect(links).not.toContain('Plans');

    await page.goto(`${stack.dashboard}/tenants`);
    await page.getByRole('heading', { name: 'Not allowed' }).waitFor();
    expect(await page.getByRole('table').count()).toBe(0);
    await expectAccessible(tracked, 'refusal');

    await page.getByRole('button', { name: /^Account of/ }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.waitForURL(/\/sign-in$/);
    await page.goto(`${stack.dashboard}/t/${stack.tenantId}`);
    await page.waitForURL(/\/sign-in\?next=/);
    tracked.expectClean();
  });

  it.each<Scheme>(['light', 'dark'])(
    'a person accepts an invitation by its mailed link, later resets a forgotten password (%s)',
    async (scheme) => {
      // a new address per attempt: a CI retry must not meet the first attempt's invitation
      const person: DemoUser = {
        email: `pat-${scheme}-${randomUUID().slice(0, 8)}@demo.test`,
        password: 'first password 1',
      };
      await graphqlData(
        stack,
        `mutation ($tenantId: ID!, $email: String!) {
          inviteMember(input: { tenantId: $tenantId, email: $email, role: TENANT_VIEWER }) { id }
        }`,
        { tenantId: stack.tenantId, email: person.email },
        await bearerLogin(stack, stack.tenantAdmin),
      );
      const invitation = await stack.smtp.waitFor(person.email);
      const inviteLink = /https?:\/\/\S+\/invite\/\S+/.exec(invitation.text)?.[0];
      expect(inviteLink?.startsWith(`${stack.dashboard}/invite/`)).toBe(true);
      const tracked = await browser.open(scheme);
      const { page } = tracked;
      await page.goto(inviteLink!);
      await page.getByRole('heading', { name: 'Join Demo Inc.' }).waitFor();
      await expectAccessible(tracked, 'invite');
      await screenshot(tracked, 'invite');
      await page.getByLabel(/^Your name/).fill('Pat Viewer');
      await page.getByLabel(/^Choose a password/).fill(person.password);
      await page.getByRole('button', { name: 'Accept the invitation' }).click();
      await page.waitForURL(`${stack.dashboard}/t/${stack.tenantId}`);

      // a viewer typing an operator's URL: a refusal, not data
      await page.goto(`${stack.dashboard}/users`);
      await page.getByRole('heading', { name: 'Not allowed' }).waitFor();
      await expectAccessible(tracked, 'refusal');
      await screenshot(tracked, 'refusal');
      await page.getByRole('button', { name: /^Account of/ }).click();
      await page.getByRole('menuitem', { name: 'Sign out' }).click();
      await page.waitForURL(/\/sign-in$/);

      await page.getByRole('link', { name: 'Forgot your password?' }).click();
      // the sign-in page has an Email field too: fill the reset page's, once it has replaced it
      await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
      await page.getByLabel(/^Email/).fill(person.email);
      await page.getByRole('button', { name: 'Send the link' }).click();
      // the request was made: the page says so before any mail is awaited
      await page.getByRole('status').getByText('Check your mail').waitFor();
      const reset = await stack.smtp.waitFor(person.email, (mail) =>
        mail.text.includes('/reset-password/'),
      );
      const resetLink = /https?:\/\/\S+\/reset-password\/\S+/.exec(reset.text)?.[0];
      expect(resetLink?.startsWith(`${stack.dashboard}/reset-password/`)).toBe(true);
      await page.goto(resetLink!);
      await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
      await expectAccessible(tracked, 'reset-password');
      await screenshot(tracked, 'reset-password');
      await page.getByLabel(/^New password/).fill('second password 2');
      await page.getByLabel(/^Repeat it/).fill('second password 2');
      await page.getByRole('button', { name: 'Set the password' }).click();
      await page.getByRole('status').getByText('Your password is changed').waitFor();
      await signIn(page, stack.dashboard, { ...person, password: 'second password 2' });
      await page.waitForURL(`${stack.dashboard}/t/${stack.tenantId}`);
      tracked.expectClean();
    },
  );
});
