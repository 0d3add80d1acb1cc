import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { freePort, launchChromium, startServer, type ServerProcess } from '@sluice/testing';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';

// The production build behind the dashboard's own server (Nx builds it before this target), in a
// real headless Chromium. The control plane is stood in for by a small upstream that records what
// reaches it (the real one is driven end to end by tools/dev's console suite): this proves the
// server's proxy, HTTP and WebSocket, through the dashboard's origin.
describe('dashboard server', () => {
  let upstream: Server;
  let sockets: WebSocketServer;
  let seen: { method: string | undefined; url: string | undefined; headers: IncomingHttpHeaders }[];
  let server: ServerProcess;
  let browser: Browser;
  let url: string;

  beforeAll(async () => {
    seen = [];
    upstream = createServer((req, res) => {
      seen.push({ method: req.method, url: req.url, headers: req.headers });
      req.resume();
      req.on('end', () => {
        res.writeHead(200, {
          'content-type': 'application/json',
          'set-cookie': 'sluice_csrf=token-1; Path=/; SameSite=Lax',
        });
        // no session: the console sends the browser to the sign-in page
        res.end(
          JSON.stringify({
            errors: [{ message: 'Log in to continue.', extensions: { code: 'UNAUTHENTICATED' } }],
            data: null,
          }),
        );
      });
    });
    sockets = new WebSocketServer({ server: upstream, path: '/graphql' });
    sockets.on('connection', (socket, request) => {
      socket.send(JSON.stringify({ protocol: socket.protocol, url: request.url }));
      socket.on('message', (message) => socket.send(`echo ${String(message)}`));
    });
    // a port the OS gives as it listens: no window for another process to take it
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const upstreamPort = (upstream.address() as AddressInfo).port;

    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    server = await startServer(process.execPath, [join(__dirname, '../dist/server/main.js')], {
      cwd: join(__dirname, '..'),
      env: {
        ...process.env,
        HOST: '127.0.0.1',
        DASHBOARD_PORT: String(port),
        CONTROL_PLANE_URL: `http://127.0.0.1:${upstreamPort}`,
      },
      readyUrl: `${url}/healthz`,
    });
    browser = await launchChromium();
  }, 90_000);

  afterAll(async () => {
    // each stopped even when one before it fails (a crashed Chromium)
    try {
      await browser?.close();
    } finally {
      try {
        await server?.stop();
      } finally {
        if (upstream) await closeUpstream();
      }
    }
  });

  /** Stops the upstream with every connection cut (the proxy's kept-alive ones, a WebSocket). */
  async function closeUpstream(): Promise<void> {
    const closed = new Promise((resolve) => upstream.close(resolve));
    upstream.closeAllConnections();
    for (const client of sockets?.clients ?? []) client.terminate();
    await closed;
  }

  it('sends a visitor without a session to the sign-in page, coming back after', async () => {
    const page = await browser.newPage();
    await page.goto(`${url}/tenants?status=ACTIVE`);
    await page.waitForURL(/\/sign-in\?next=/);
    expect(new URL(page.url()).searchParams.get('next')).toBe('/tenants?status=ACTIVE');
    expect(await page.getByRole('heading', { level: 2 }).textContent()).toBe('Sign in');
    // the mark the browser tests wait for before they type into a page
    await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
    // shown within a second: 10 s leaves a loaded machine room
    await expect.poll(() => page.title(), { timeout: 10_000 }).toBe('Sign in · Sluice');
    await page.close();
  });

  it('proxies /graphql to the control plane: cookies, the CSRF header and the client address', async () => {
    seen.length = 0;
    const response = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        cookie: 'sluice_session=s1; sluice_csrf=token-1',
        'x-csrf-token': 'token-1',
      },
      body: JSON.stringify({ query: '{ me { id } }' }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('set-cookie')).toContain('sluice_csrf=token-1');
    expect(await response.json()).toMatchObject({
      errors: [{ extensions: { code: 'UNAUTHENTICATED' } }],
    });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      method: 'POST',
      url: '/graphql',
      headers: {
        cookie: 'sluice_session=s1; sluice_csrf=token-1',
        'x-csrf-token': 'token-1',
        'x-forwarded-for': '127.0.0.1',
      },
    });
    // nothing else of the dashboard's reaches the control plane
    seen.length = 0;
    expect((await fetch(`${url}/graphqlx`)).status).toBe(404);
    expect(seen).toHaveLength(0);
  });

  it('upgrades the /graphql WebSocket through the dashboard’s origin', async () => {
    const socket = new WebSocket(`${url.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
    const messages: string[] = [];
    socket.on('message', (data) => messages.push(String(data)));
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    socket.send('ping');
    await expect.poll(() => messages.length, { timeout: 10_000 }).toBe(2);
    expect(JSON.parse(messages[0]!)).toEqual({ protocol: 'graphql-transport-ws', url: '/graphql' });
    expect(messages[1]).toBe('echo ping');
    socket.close();
  });

  it('answers a problem (502) when the control plane does not answer', async () => {
    await closeUpstream();
    const response = await fetch(`${url}/graphql`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(502);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(await response.json()).toMatchObject({ status: 502, title: 'Bad Gateway' });
  });

  it('answers /healthz as JSON', async () => {
    const response = await fetch(`${url}/healthz`);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toMatchObject({ status: 'ok', service: 'dashboard' });
  });
});
