import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DemoUser } from '../src/seed';
import {
  ConsoleBrowser,
  expectAccessible,
  screenshot,
  type Scheme,
  type TrackedPage,
} from './support/console-browser';
import { startConsoleStack, type ConsoleStack } from './support/console-stack';
import { acceptInvitation, checkWith, inviteMember, secretIn } from './support/console-steps';

// A tenant's access pages on the real stack, in Chromium, as its people use them: an operator
// makes a tenant and invites its admin, who accepts by the mailed link; the admin's API key works
// on the data plane until rotated and revoked; webhook endpoints with their one-time secrets;
// a viewer who sees no write buttons. Every page checked by axe-core and photographed in both
// themes. The tests run in order: each goes on from what the one before made.
// each test drives several pages, axe-core on most: longer than the default on a busy machine
describe('the console: API keys, webhooks, members', { timeout: 150_000 }, () => {
  let stack: ConsoleStack;
  let browser: ConsoleBrowser;
  let tenantId = '';
  const admin: DemoUser = { email: 'ada@orbit.test', password: 'admin password 1' };
  const viewer: DemoUser = { email: 'vic@orbit.test', password: 'viewer password 1' };
  // no worker runs in this stack and no event is sent: this address is never contacted; it is
  // a literal public one because the control plane resolves a URL's host and this machine has
  // no DNS
  const PUBLIC_URL = 'https://93.184.215.14/hooks/sluice';

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

  const page$ = (path: string) => `${stack.dashboard}/t/${tenantId}${path}`;

  const check = (secret: string) =>
    checkWith(stack, secret, { policy: 'api', identifier: 'user-42' });
  /** The data plane sees a key change within seconds (the relay publishes it). */
  const eventually = (secret: string, status: number) =>
    expect.poll(async () => (await check(secret)).status, { timeout: 15_000 }).toBe(status);
  const accept = (user: DemoUser, name: string, scheme: Scheme = 'light') =>
    acceptInvitation(
      stack,
      browser,
      { user, name, tenantName: 'Orbit Labs', tenantUrl: page$('') },
      scheme,
    );
  const invite = (page: Page, email: string, role: 'Admin' | 'Viewer') =>
    inviteMember(page, page$(''), email, role);

  /** Fills the endpoint dialog and submits it. */
  async function submitEndpoint(dialog: Locator, name: string, url: string) {
    await dialog.getByLabel(/^Name/).fill(name);
    await dialog.getByLabel(/^URL/).fill(url);
    await dialog.getByRole('button', { name: 'Create the endpoint' }).click();
  }

  it('an operator creates a tenant and invites its admin, who accepts by the mailed link', async () => {
    const tracked = await browser.signedIn(stack.operator);
    const { page } = tracked;
    await page.goto(`${stack.dashboard}/tenants`);
    await page.getByRole('button', { name: 'New tenant' }).click();
    const dialog = page.getByRole('dialog', { name: 'New tenant' });
    await dialog.getByLabel(/^Name/).fill('Orbit Labs');
    await dialog.getByRole('button', { name: 'Create the tenant' }).click();
    await page.getByRole('heading', { name: 'Orbit Labs' }).waitFor();
    tenantId = /\/t\/([^/?]+)/.exec(page.url())![1]!;

    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Members' }).click();
    await page.getByRole('heading', { name: 'Members', level: 1 }).waitFor();
    // the operator is no member of the tenant: nobody is, until the invitation is accepted
    await page.getByText('No member matches').waitFor();
    await invite(page, admin.email, 'Admin');
    tracked.expectClean();

    const invited = await accept(admin, 'Ada Admin');
    await invited.page.getByRole('heading', { name: 'Orbit Labs' }).waitFor();
    invited.expectClean();

    await page.reload();
    await page.getByRole('cell', { name: /^Ada Admin/ }).waitFor();
    await page.getByText('No pending invitation').waitFor();
    tracked.expectClean();
  });

  it('the admin creates an API key, sees its secret once and uses it, rotates and revokes it', async () => {
    const tracked = await browser.signedIn(admin);
    const { page } = tracked;
    await page.goto(page$('/keys'));
    await page.getByText('No API keys yet').waitFor();

    await page.getByRole('button', { name: 'New API key' }).click();
    let dialog = page.getByRole('dialog', { name: 'New API key' });
    await dialog.getByRole('button', { name: 'Create the key' }).click();
    // checked here before anything is sent
    await dialog.getByText('Enter a name').waitFor();
    await dialog.getByLabel(/^Name/).fill('checkout-api');
    await dialog.getByLabel(/^Policies it may use/).fill('api');
    await dialog.getByLabel(/^Policies it may use/).press('Enter');
    await dialog.getByRole('button', { name: 'Create the key' }).click();

    dialog = page.getByRole('dialog', { name: 'Your new API key' });
    await dialog.getByText('Copy it now: it will not be shown again').waitFor();
    const secret = await secretIn(dialog, /^sk_live_\S+$/);
    const curl = await dialog.getByText(/^curl /).textContent();
    expect(curl).toContain(`Bearer ${secret}`);
    expect(curl).toContain('"policy":"api"');
    await dialog.getByRole('tab', { name: 'Node.js SDK' }).click();
    await dialog.getByText(/from '@sluice\/sdk'/).waitFor();
    await dialog.getByRole('button', { name: 'I have copied it' }).click();

    const row = page.getByRole('row', { name: /checkout-api/ });
    await row.getByText(secret.slice(0, 12)).waitFor();
    await row.getByText('active').waitFor();
    expect(await page.content()).not.toContain(secret);
    await page.reload();
    await page.getByRole('row', { name: /checkout-api/ }).waitFor();
    // gone for good: nothing on the page has it any more
    expect(await page.content()).not.toContain(secret);

    await eventually(secret, 200);
    expect((await check(secret)).body.allowed).toBe(true);

    await page.getByRole('button', { name: 'Actions for checkout-api' }).click();
    await page.getByRole('menuitem', { name: 'Rotate…' }).click();
    dialog = page.getByRole('dialog', { name: 'Rotate checkout-api' });
    await dialog.getByRole('button', { name: 'Rotate the key' }).click();
    dialog = page.getByRole('dialog', { name: 'New secret of checkout-api' });
    const rotated = await secretIn(dialog, /^sk_live_\S+$/);
    expect(rotated).not.toBe(secret);
    await dialog.getByRole('button', { name: 'I have copied it' }).click();
    await eventually(secret, 401);
    await eventually(rotated, 200);

    // the rotated key is revoked, its successor listed: filter the list by status
    await page.goto(page$('/keys?status=REVOKED'));
    await page
      .getByRole('row', { name: /checkout-api/ })
      .getByText('revoked')
      .waitFor();
    await page.goto(page$('/keys?status=ACTIVE'));
    await page.getByRole('button', { name: 'Actions for checkout-api' }).click();
    await page.getByRole('menuitem', { name: 'Revoke…' }).click();
    dialog = page.getByRole('dialog', { name: 'Revoke checkout-api' });
    const revoke = dialog.getByRole('button', { name: 'Revoke the key' });
    expect(await revoke.isDisabled()).toBe(true);
    await dialog.getByLabel('Type checkout-api to confirm').fill('checkout-api');
    await revoke.click();
    await page.getByText('checkout-api is revoked.').waitFor();
    await page.getByText('No key matches').waitFor();
    await eventually(rotated, 401);
    tracked.expectClean();
  });

  it('the admin creates a webhook endpoint, sees its secret once, edits, disables, rotates and deletes', async () => {
    const tracked = await browser.signedIn(admin);
    const { page } = tracked;
    await page.goto(page$('/webhooks'));
    await page.getByText('No webhook endpoints yet').waitFor();

    await page.getByRole('button', { name: 'New endpoint' }).click();
    let dialog = page.getByRole('dialog', { name: 'New webhook endpoint' });
    // the control plane refuses a private address (SSRF): its message lands on the URL field
    await submitEndpoint(dialog, 'billing', 'http://127.0.0.1:9/hooks');
    await dialog
      .getByText(/127\.0\.0\.1.*public addresses only/)
      .first()
      .waitFor();
    await dialog.getByLabel(/^URL/).fill(PUBLIC_URL);
    await dialog.getByLabel(/^Leak rate/).fill('2');
    await dialog.getByRole('button', { name: 'Create the endpoint' }).click();

    dialog = page.getByRole('dialog', { name: 'Your endpoint’s signing secret' });
    const secret = await secretIn(dialog, /^whsec_\S+$/);
    await dialog.getByRole('button', { name: 'I have copied it' }).click();
    await page.getByRole('heading', { name: 'billing' }).waitFor();
    await page.getByText(PUBLIC_URL).waitFor();
    await page.getByText('2 per second').waitFor();
    // nothing waits yet; its FIFO admits 1,000
    await page.getByText('the FIFO admits 1,000 at most', { exact: false }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'billing' }).waitFor();
    expect(await page.content()).not.toContain(secret);

    await page.getByRole('button', { name: 'Edit' }).click();
    dialog = page.getByRole('dialog', { name: 'Edit billing' });
    await dialog.getByLabel(/^Max attempts/).fill('12');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByText('billing is saved.').waitFor();
    await expect.poll(() => page.getByText('12', { exact: true }).count()).toBe(1);

    await page.getByRole('button', { name: 'Disable' }).click();
    await page.getByText('billing is disabled.').waitFor();
    await page.getByRole('button', { name: 'Enable' }).waitFor();

    await page.getByRole('button', { name: 'Rotate secret' }).click();
    dialog = page.getByRole('dialog', { name: 'Rotate the signing secret' });
    await dialog.getByRole('button', { name: 'Rotate the secret' }).click();
    dialog = page.getByRole('dialog', { name: 'New signing secret of billing' });
    expect(await secretIn(dialog, /^whsec_\S+$/)).not.toBe(secret);
    await dialog.getByRole('button', { name: 'I have copied it' }).click();
    await page.getByText('no previous secret').waitFor({ state: 'detached' });

    // a second endpoint, deleted
    await page.goto(page$('/webhooks'));
    await page.getByRole('button', { name: 'New endpoint' }).click();
    await submitEndpoint(page.getByRole('dialog'), 'old-hooks', `${PUBLIC_URL}/old`);
    await page.getByRole('button', { name: 'I have copied it' }).click();
    await page.getByRole('heading', { name: 'old-hooks' }).waitFor();
    await page.getByRole('button', { name: 'Delete' }).click();
    dialog = page.getByRole('dialog', { name: 'Delete old-hooks' });
    await dialog.getByLabel('Type old-hooks to confirm').fill('old-hooks');
    await dialog.getByRole('button', { name: 'Delete the endpoint' }).click();
    await page.waitForURL(page$('/webhooks'));
    await page.getByRole('link', { name: 'billing' }).waitFor();
    expect(await page.getByRole('link', { name: 'old-hooks' }).count()).toBe(0);
    await page.goto(page$('/webhooks?state=enabled'));
    await page.getByText('No endpoint matches').waitFor();
    tracked.expectClean();
  });

  it('the admin invites a viewer, who reads every page without a write button', async () => {
    const tracked = await browser.signedIn(admin);
    await invite(tracked.page, viewer.email, 'Viewer');
    tracked.expectClean();
    const invited = await accept(viewer, 'Vic Viewer');
    const { page } = invited;
    for (const path of ['/keys', '/webhooks', '/members']) {
      await page.goto(page$(path));
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.getByRole('table').first().waitFor();
    }
    await page.goto(page$('/keys?status=REVOKED'));
    await page
      .getByRole('row', { name: /checkout-api/ })
      .first()
      .waitFor();
    expect(await page.getByRole('button', { name: /New API key|Actions for/ }).count()).toBe(0);
    await page.goto(page$('/webhooks'));
    await page.getByRole('link', { name: 'billing' }).click();
    await page.getByRole('heading', { name: 'billing' }).waitFor();
    expect(
      await page.getByRole('button', { name: /Edit|Disable|Enable|Rotate|Delete/ }).count(),
    ).toBe(0);
    await page.goto(page$('/members'));
    await page.getByRole('cell', { name: /^Vic Viewer/ }).waitFor();
    expect(await page.getByRole('button', { name: /Invite|Actions for|Revoke/ }).count()).toBe(0);

    // another tenant's pages are refused, not shown
    await page.goto(`${stack.dashboard}/t/${stack.tenantId}/keys`);
    await page.getByRole('heading', { name: 'Not allowed' }).waitFor();
    expect(await page.getByRole('table').count()).toBe(0);
    invited.expectClean();
  });

  /** Visits a page, checks it with axe-core and photographs it. */
  async function look(tracked: TrackedPage, name: string, ready: () => Promise<unknown>) {
    await ready();
    await expectAccessible(tracked, name);
    await screenshot(tracked, name);
  }

  it.each<Scheme>(['light', 'dark'])(
    'every page and dialog, as the admin sees them (%s)',
    async (scheme) => {
      const tracked = await browser.signedIn(admin, scheme);
      const { page } = tracked;
      await page.goto(page$('/keys'));
      await look(tracked, 'keys', () =>
        page
          .getByRole('row', { name: /checkout-api/ })
          .first()
          .waitFor(),
      );

      await page.getByRole('button', { name: 'New API key' }).click();
      let dialog = page.getByRole('dialog', { name: 'New API key' });
      await dialog.getByLabel(/^Name/).fill(`reporting ${scheme}`);
      await look(tracked, 'key-new', () =>
        dialog.getByRole('button', { name: 'Create the key' }).waitFor(),
      );
      await dialog.getByRole('button', { name: 'Create the key' }).click();
      dialog = page.getByRole('dialog', { name: 'Your new API key' });
      await look(tracked, 'key-secret', () => dialog.getByText(/^curl /).waitFor());
      await dialog.getByRole('button', { name: 'I have copied it' }).click();

      await page.goto(page$('/webhooks'));
      await look(tracked, 'webhooks', () => page.getByRole('link', { name: 'billing' }).waitFor());
      await page.getByRole('button', { name: 'New endpoint' }).click();
      dialog = page.getByRole('dialog', { name: 'New webhook endpoint' });
      await look(tracked, 'webhook-new', () => dialog.getByLabel(/^URL/).waitFor());
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await page.getByRole('link', { name: 'billing' }).click();
      await look(tracked, 'webhook', () =>
        page.getByRole('heading', { name: 'Dead letters' }).waitFor(),
      );
      await page.getByRole('button', { name: 'Rotate secret' }).click();
      dialog = page.getByRole('dialog', { name: 'Rotate the signing secret' });
      await look(tracked, 'webhook-rotate', () => dialog.getByRole('radio').first().waitFor());
      await dialog.getByRole('button', { name: 'Cancel' }).click();

      await page.goto(page$('/members'));
      await look(tracked, 'members', () =>
        page.getByRole('cell', { name: /^Vic Viewer/ }).waitFor(),
      );
      await page.getByRole('button', { name: 'Invite a member' }).click();
      dialog = page.getByRole('dialog', { name: 'Invite a member' });
      await look(tracked, 'member-invite', () => dialog.getByLabel(/^Email/).waitFor());
      tracked.expectClean();
    },
  );

  it.each<Scheme>(['light', 'dark'])('the pages as the viewer sees them (%s)', async (scheme) => {
    const tracked = await browser.signedIn(viewer, scheme);
    const { page } = tracked;
    await page.goto(page$('/keys'));
    await look(tracked, 'keys-viewer', () =>
      page
        .getByRole('row', { name: /reporting/ })
        .first()
        .waitFor(),
    );
    await page.goto(page$('/members'));
    await look(tracked, 'members-viewer', () =>
      page.getByRole('cell', { name: /^Ada Admin/ }).waitFor(),
    );
    tracked.expectClean();
  });

  it('the admin makes the viewer an admin and back, revokes an invitation, removes a member', async () => {
    const tracked = await browser.signedIn(admin);
    const { page } = tracked;
    await page.goto(page$('/members'));
    const actions = page.getByRole('button', { name: 'Actions for Vic Viewer' });
    await actions.click();
    await page.getByRole('menuitem', { name: 'Make admin' }).click();
    await page.getByText('Vic Viewer is now tenant admin.').waitFor();
    await actions.click();
    await page.getByRole('menuitem', { name: 'Make viewer' }).click();
    await page.getByText('Vic Viewer is now tenant viewer.').waitFor();

    await invite(page, 'late@orbit.test', 'Viewer');
    await page.goto(page$('/members?search=late'));
    await page.getByText('No member matches').waitFor();
    await page.getByRole('button', { name: 'Revoke the invitation of late@orbit.test' }).click();
    await page.getByText('The invitation of late@orbit.test is revoked.').waitFor();
    await page.getByText('No invitation matches').waitFor();

    await page.goto(page$('/members'));
    await actions.click();
    await page.getByRole('menuitem', { name: 'Remove…' }).click();
    await page
      .getByRole('dialog', { name: 'Remove Vic Viewer' })
      .getByRole('button', { name: 'Remove from the tenant' })
      .click();
    await page.getByText('Vic Viewer is removed from the tenant.').waitFor();
    await expect.poll(() => page.getByRole('cell', { name: /^Vic Viewer/ }).count()).toBe(0);

    // the last admin cannot demote themselves: the API's CONFLICT, shown as it says
    await page.getByRole('button', { name: 'Actions for Ada Admin' }).click();
    await page.getByRole('menuitem', { name: 'Make viewer' }).click();
    await page.getByText('A tenant needs at least one TENANT_ADMIN').waitFor();
    tracked.expectClean();
  });
});
