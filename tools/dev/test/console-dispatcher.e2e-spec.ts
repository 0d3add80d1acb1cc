import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ConsoleBrowser,
  expectAccessible,
  type Scheme,
  screenshot,
} from './support/console-browser';
import { startConsoleStack, type ConsoleStack } from './support/console-stack';
import { bearerLogin, graphqlData } from './support/console-steps';

/** A webhook leaves within a second at 5 per second; the page reads the queue every 2 s. */
const DELIVERY_DEADLINE_MS = 25_000;
/** Heartbeats come every 5 s and the platform page reads them every 5 s: 5 × the 10 s worst case. */
const HEARTBEAT_DEADLINE_MS = 50_000;

/** A receiver on loopback that answers 500 until it is fixed, and records what it got. */
class Receiver {
  failing = true;
  readonly received: { eventId: string; status: number }[] = [];
  private constructor(private readonly server: Server) {}

  static async start(): Promise<Receiver> {
    const server = createServer();
    const receiver = new Receiver(server);
    server.on('request', (request, response) => {
      request.resume();
      request.on('end', () => {
        const status = receiver.failing ? 500 : 200;
        receiver.received.push({ eventId: String(request.headers['sluice-event-id']), status });
        response.writeHead(status).end();
      });
    });
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((closed) => this.server.close(() => closed()));
  }
}

// The dispatcher queue on the real stack (the worker delivering) in Chromium: an event sent to a
// failing receiver becomes a dead letter on the endpoint's page without a reload; the receiver is
// fixed, the dead letter replayed from the page (its delivery time told beforehand), and the
// page shows it delivered. The tests run in order.
describe('the webhook dispatcher’s queue', { timeout: 150_000 }, () => {
  let stack: ConsoleStack;
  let browser: ConsoleBrowser;
  let receiver: Receiver;
  let endpointId = '';
  let eventId = '';

  beforeAll(async () => {
    receiver = await Receiver.start();
    stack = await startConsoleStack({ webhooks: true });
    browser = await ConsoleBrowser.launch(stack.dashboard);
  }, 180_000);
  afterAll(async () => {
    try {
      await browser?.close();
    } finally {
      try {
        await stack?.stop();
      } finally {
        await receiver?.close();
      }
    }
  });

  it('shows an event to a failing receiver as a dead letter, live', async () => {
    const token = await bearerLogin(stack, stack.tenantAdmin);
    const { createWebhookEndpoint } = await graphqlData<{
      createWebhookEndpoint: { endpoint: { id: string } };
    }>(
      stack,
      `mutation ($input: CreateWebhookEndpointInput!) {
        createWebhookEndpoint(input: $input) { endpoint { id } }
      }`,
      {
        input: {
          tenantId: stack.tenantId,
          name: 'billing',
          url: receiver.url,
          leakRatePerSec: 5,
          queueCapacity: 100,
          maxAttempts: 1,
        },
      },
      token,
    );
    endpointId = createWebhookEndpoint.endpoint.id;

    const admin = await browser.signedIn(stack.tenantAdmin);
    const { page } = admin;
    await page.goto(`${stack.dashboard}/t/${stack.tenantId}/webhooks/${endpointId}`);
    const deadLetters = page.getByRole('region', { name: 'Dead letters' });
    await deadLetters.getByText(/^No dead letters/).waitFor();

    // the data plane takes events for the endpoint once it is published
    await expect
      .poll(
        async () => {
          const response = await fetch(`${stack.dataPlane}/v1/webhooks`, {
            method: 'POST',
            headers: {
              authorization: `Bearer ${stack.apiKey}`,
              'content-type': 'application/json',
            },
            body: JSON.stringify({ endpoint: 'billing', type: 'invoice.paid', payload: { n: 1 } }),
          });
          if (response.status === 202)
            eventId = ((await response.json()) as { eventId: string }).eventId;
          return response.status;
        },
        { timeout: DELIVERY_DEADLINE_MS },
      )
      .toBe(202);

    const letters = deadLetters.getByRole('table', { name: 'Dead letters' });
    await letters.getByText(eventId).waitFor({ timeout: DELIVERY_DEADLINE_MS });
    await letters.getByText('HTTP 500', { exact: false }).waitFor();
    const attempts = page.getByRole('table', { name: 'Recent attempts' });
    await attempts.getByRole('row').filter({ hasText: eventId }).getByText('dead').waitFor();
    expect(receiver.received).toEqual([{ eventId, status: 500 }]);
    await expectAccessible(admin, 'webhook endpoint, a dead letter');
    await screenshot(admin, 'webhook-queue');
    admin.expectClean();
  });

  it('replays the dead letter once the receiver is fixed, and shows it delivered', async () => {
    receiver.failing = false;
    const admin = await browser.signedIn(stack.tenantAdmin);
    const { page } = admin;
    await page.goto(`${stack.dashboard}/t/${stack.tenantId}/webhooks/${endpointId}`);
    const replay = page.getByRole('button', { name: `Replay ${eventId}` });
    // told beforehand: one event at 5 per second, nothing waiting
    await replay.getByText('Replay (about 200 ms)').waitFor();
    await replay.click();
    await page.getByText(/^1 sent back to the queue; delivered in about/).waitFor();

    const attempts = page.getByRole('table', { name: 'Recent attempts' });
    await attempts
      .getByRole('row')
      .filter({ hasText: eventId })
      .getByText('delivered')
      .waitFor({ timeout: DELIVERY_DEADLINE_MS });
    await page
      .getByRole('region', { name: 'Dead letters' })
      .getByText(/^No dead letters/)
      .waitFor({ timeout: DELIVERY_DEADLINE_MS });
    expect(receiver.received).toEqual([
      { eventId, status: 500 },
      { eventId, status: 200 },
    ]);
    await expectAccessible(admin, 'webhook endpoint, replayed');
    admin.expectClean();

    const operator = await browser.signedIn(stack.operator, 'dark');
    await operator.page.goto(`${stack.dashboard}/t/${stack.tenantId}/webhooks/${endpointId}`);
    await operator.page
      .getByRole('table', { name: 'Recent attempts' })
      .getByText('delivered')
      .waitFor();
    await expectAccessible(operator, 'webhook endpoint');
    await screenshot(operator, 'webhook-queue');
    operator.expectClean();
  });

  // the platform view reads the heartbeats the data plane and the worker write every 5 s
  it.each<Scheme>(['light', 'dark'])(
    'an operator sees the data plane and the worker on the platform view, live (%s)',
    async (scheme) => {
      const operator = await browser.signedIn(stack.operator, scheme);
      const { page } = operator;
      await page.goto(`${stack.dashboard}/platform`);
      await page.getByRole('heading', { name: 'Platform', level: 1 }).waitFor();
      const planes = page.getByRole('table', { name: 'Data planes' });
      await planes.getByText('live').waitFor({ timeout: HEARTBEAT_DEADLINE_MS });
      expect(await planes.getByRole('row').count()).toBe(2);
      await planes.getByText(/^ready · /).waitFor();
      await planes.getByText('every version current').waitFor();
      const workers = page.getByRole('table', { name: 'Workers' });
      await workers
        .getByRole('row')
        .filter({ hasText: 'sluice-webhooks' })
        .getByText('running')
        .waitFor();
      await workers
        .getByRole('row')
        .filter({ hasText: 'sluice-usage' })
        .getByText('running')
        .waitFor();

      // checks while the page is open: the next beats carry their rate, the page reads it
      const checksNow = page.getByText('Checks now').locator('..');
      let firing = true;
      const fire = (async () => {
        while (firing) {
          const response = await fetch(`${stack.dataPlane}/v1/check`, {
            method: 'POST',
            headers: {
              authorization: `Bearer ${stack.apiKey}`,
              'content-type': 'application/json',
            },
            body: JSON.stringify({ policy: 'api', identifier: `platform-${scheme}` }),
          });
          await response.arrayBuffer();
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      })();
      try {
        await expect
          .poll(async () => (await checksNow.textContent()) ?? '', {
            timeout: HEARTBEAT_DEADLINE_MS,
            interval: 250,
          })
          .toMatch(/Checks now[1-9][\d.,]*\/s/);
      } finally {
        firing = false;
        await fire;
      }
      await planes.getByText(/\/s denied$/).waitFor();

      await page.locator('label').filter({ hasText: /^Day$/ }).click();
      await page.waitForURL(/[?&]range=DAY/);
      await page.getByText(/^Over the last 24 hours, by hour/).waitFor();
      await page
        .locator('label')
        .filter({ hasText: /^Hour$/ })
        .click();
      await page.waitForURL((url) => !url.search.includes('range=DAY'));
      await expectAccessible(operator, `platform (${scheme})`);
      await screenshot(operator, 'platform');
      await planes.scrollIntoViewIfNeeded();
      await screenshot(operator, 'platform-services');
      operator.expectClean();
    },
  );
});
