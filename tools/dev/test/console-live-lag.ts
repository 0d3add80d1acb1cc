/**
 * How far the tenant overview's live chart runs behind the data plane, on the demo `npm start`
 * runs: a script that prints figures (the suite only waits for the chart, 5 times the goal). With
 * `npm start` running in another terminal:
 *
 *   npx tsx tools/dev/test/console-live-lag.ts [--dashboard http://127.0.0.1:3000]
 *     [--data-plane http://127.0.0.1:4100] [--rounds 10]
 *
 * Each round sends checks on the demo's `api` policy until one is denied, then times from that
 * denial's answer until the chart's denied total counts it. Signs in as the demo tenant's admin
 * with the password `npm start` keeps in `.data/`, and checks with the demo service key.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { launchChromium } from '@sluice/testing';
import { dataDir } from '../src/paths';
import { DEMO_ADMIN_EMAIL } from '../src/seed';
import { chartTotal } from './support/live-chart';
import { signIn } from './support/sign-in';

const { values } = parseArgs({
  options: {
    dashboard: { type: 'string', default: 'http://127.0.0.1:3000' },
    'data-plane': { type: 'string', default: 'http://127.0.0.1:4100' },
    rounds: { type: 'string', default: '10' },
  },
});
const dashboard = values.dashboard.replace(/\/$/, '');
const dataPlane = values['data-plane'].replace(/\/$/, '');
const rounds = Number(values.rounds);
const secret = async (file: string) => (await readFile(join(dataDir, file), 'utf8')).trim();

/** Checks until one is denied (the burst rule lets 5 through, then 1 a second). */
async function deniedCheck(apiKey: string, identifier: string): Promise<void> {
  for (;;) {
    const response = await fetch(`${dataPlane}/v1/check`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ policy: 'api', identifier }),
    });
    const body = (await response.json()) as { allowed?: boolean };
    if (body.allowed === false) return;
  }
}

async function main(): Promise<void> {
  const apiKey = await secret('demo-api-key');
  const browser = await launchChromium();
  const lags: number[] = [];
  try {
    const page = await (
      await browser.newContext({ viewport: { width: 1280, height: 800 } })
    ).newPage();
    await signIn(page, dashboard, {
      email: DEMO_ADMIN_EMAIL,
      password: await secret('demo-admin-password'),
    });
    await page.waitForURL(/\/t\/[^/]+$/);
    await page
      .getByRole('region', { name: 'Decisions of api' })
      .getByText(/^In total: /)
      .waitFor();
    for (let round = 0; round < rounds; round += 1) {
      const before = await chartTotal(page, 'api', 'denied');
      await deniedCheck(apiKey, `live-lag-${round}`);
      const denied = performance.now();
      while ((await chartTotal(page, 'api', 'denied')) <= before) await page.waitForTimeout(20);
      lags.push(performance.now() - denied);
    }
  } finally {
    await browser.close();
  }
  lags.sort((a, b) => a - b);
  const median = lags[Math.floor(lags.length / 2)]!;
  console.log(
    `rounds: ${rounds}; lag from a denial to the live chart: median ${median.toFixed(0)} ms, max ${lags.at(-1)!.toFixed(0)} ms`,
  );
  console.log('goal: 2,000 ms (the chart moves with the usage subscription, pushed every second)');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
