import { join } from 'node:path';
import { freePort, launchChromium, startServer, type ServerProcess } from '@sluice/testing';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The production build (`next start` over .next, which Nx builds before this target) in a real
// headless Chromium.
describe('dashboard in Chromium', () => {
  let server: ServerProcess;
  let browser: Browser;
  let url: string;

  beforeAll(async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    const next = join(__dirname, '../../../node_modules/next/dist/bin/next');
    server = await startServer(
      process.execPath,
      [next, 'start', '--hostname', '127.0.0.1', '--port', String(port)],
      { cwd: join(__dirname, '..'), env: process.env, readyUrl: `${url}/healthz` },
    );
    browser = await launchChromium();
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('renders the landing page', async () => {
    const page = await browser.newPage();
    const response = await page.goto(url);
    expect(response?.status()).toBe(200);
    expect(await page.title()).toBe('Sluice');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Sluice');
    await page.close();
  });

  it('answers /healthz as JSON', async () => {
    const response = await fetch(`${url}/healthz`);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toMatchObject({ status: 'ok', service: 'dashboard' });
  });
});
