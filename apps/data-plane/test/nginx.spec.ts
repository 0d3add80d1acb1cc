import { freePort } from '@sluice/testing';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKey, bucket, policy, publish, startApp, type TestApp } from './support';

const hasNginx = spawnSync('nginx', ['-v']).error === undefined;
if (!hasNginx) {
  process.stderr.write(
    'nginx.spec.ts skipped: no nginx on PATH (apt-get install -y nginx-light)\n',
  );
}

/** The ```nginx block of docs/data-plane.md: the snippet users copy is the one tested. */
async function documentedSnippet(): Promise<string> {
  const doc = await readFile(path.join(__dirname, '../../../docs/data-plane.md'), 'utf8');
  const block = /```nginx\n([\s\S]*?)```/.exec(doc)?.[1];
  if (!block) throw new Error('docs/data-plane.md has no ```nginx block');
  return block;
}

/** Replaces `from` in the snippet, failing if the snippet no longer has it. */
function replaceOnce(text: string, from: string, to: string): string {
  if (!text.includes(from)) throw new Error(`the NGINX snippet no longer contains ${from}`);
  return text.replace(from, to);
}

async function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe.skipIf(!hasNginx)('behind a real NGINX (auth_request, the documented snippet)', () => {
  let app: TestApp;
  let upstream: Server;
  let upstreamHits = 0;
  let nginx: ChildProcess;
  let dir: string;
  let origin: string;
  let nginxOutput = '';

  beforeAll(async () => {
    app = await startApp();
    await publish(app.t, 'tnt_a', [policy('api', { rules: [bucket('burst', 2)] })]);
    const secret = await apiKey(app.t, 'tnt_a', { policies: ['api'] });

    upstream = createServer((_request, response) => {
      upstreamHits += 1;
      response.writeHead(200, { 'content-type': 'text/plain' }).end('hello from upstream');
    });
    upstream.listen(0, '127.0.0.1');
    await once(upstream, 'listening');
    const upstreamPort = (upstream.address() as { port: number }).port;

    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    let snippet = await documentedSnippet();
    snippet = replaceOnce(snippet, 'server 127.0.0.1:4100;', `server ${new URL(app.url).host};`);
    snippet = replaceOnce(snippet, 'server 127.0.0.1:8080;', `server 127.0.0.1:${upstreamPort};`);
    snippet = replaceOnce(snippet, 'listen 8000;', `listen 127.0.0.1:${port};`);
    snippet = replaceOnce(snippet, 'sk_live_REPLACE_WITH_THE_PROXY_KEY', secret);

    dir = await mkdtemp(path.join(tmpdir(), 'dp-nginx-'));
    await writeFile(path.join(dir, 'sluice.conf'), snippet);
    await writeFile(
      path.join(dir, 'nginx.conf'),
      [
        // one foreground process of the test's own, stopped by its PID
        'daemon off;',
        'master_process off;',
        `pid ${dir}/nginx.pid;`,
        `error_log ${dir}/error.log warn;`,
        'events { worker_connections 64; }',
        'http {',
        '  access_log off;',
        ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
          (kind) => `  ${kind}_temp_path ${dir}/${kind};`,
        ),
        `  include ${dir}/sluice.conf;`,
        '}',
      ].join('\n'),
    );
    nginx = spawn(
      'nginx',
      ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', path.join(dir, 'error.log')],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    nginx.stdout?.on('data', (chunk: Buffer) => (nginxOutput += chunk.toString()));
    nginx.stderr?.on('data', (chunk: Buffer) => (nginxOutput += chunk.toString()));
    while (!(await listening(port))) {
      if (nginx.exitCode !== null) throw new Error(`nginx exited: ${nginxOutput}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });

  afterAll(async () => {
    if (nginx && nginx.exitCode === null) {
      const exited = once(nginx, 'exit');
      nginx.kill('SIGTERM');
      await exited;
    }
    upstream?.close();
    await app?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('lets a client through with the rate-limit headers, then answers 429 with Retry-After', async () => {
    const answers = [await fetch(origin), await fetch(origin), await fetch(origin)];
    const [first, second, third] = answers;

    expect(answers.map((a) => a.status)).toEqual([200, 200, 429]);
    expect(await first!.text()).toBe('hello from upstream');
    expect(first!.headers.get('x-ratelimit-limit')).toBe('2');
    expect(first!.headers.get('x-ratelimit-remaining')).toBe('1');
    expect(first!.headers.get('ratelimit-policy')).toBe('"burst";q=2;w=2000');
    expect(second!.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(first!.headers.get('retry-after')).toBeNull();

    expect(third!.headers.get('content-type')).toBe('application/problem+json');
    expect(await third!.json()).toMatchObject({
      type: 'https://sluice.dev/problems/rate-limited',
      status: 429,
    });
    expect(Number(third!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(third!.headers.get('x-ratelimit-limit')).toBe('2');
    expect(third!.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(third!.headers.get('x-ratelimit-reset'))).toBeGreaterThanOrEqual(
      Math.floor(Date.now() / 1000),
    );
    expect(third!.headers.get('ratelimit')).toMatch(/^"burst";r=0;t=\d+$/);
    // the denied request never reached the upstream
    expect(upstreamHits).toBe(2);
  });
});
