import { createWriteStream } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { verifyWebhookSignature, WebhookVerificationError } from '@sluice/sdk';

export interface DemoReceiver {
  readonly url: string;
  /** Answers 503 to everything: the demo's failing endpoint. */
  readonly failingUrl: string;
  close(): Promise<void>;
}

/**
 * The demo tenant's webhook destination under `npm start`: answers 200 to every POST and writes
 * one line per delivery to `logFile` (time, event id and type, whether the signature verifies with
 * the endpoint's secret, the body), so the dispatcher has somewhere to deliver and a person can
 * watch it work. Under `/failing` it answers 503 to everything (and logs nothing): a receiver
 * that is down, for the demo's failing endpoint.
 */
export async function startDemoReceiver(options: {
  port: number;
  host?: string;
  secret: string;
  logFile: string;
}): Promise<DemoReceiver> {
  const host = options.host ?? '127.0.0.1';
  const log = createWriteStream(options.logFile, { flags: 'a' });
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.url?.startsWith('/failing')) return void response.writeHead(503).end();
      const rawBody = Buffer.concat(chunks);
      log.write(
        `${JSON.stringify({
          at: new Date().toISOString(),
          eventId: header(request.headers, 'sluice-event-id'),
          signature: verdict(options.secret, request.headers, rawBody),
          body: rawBody.toString('utf8'),
        })}\n`,
      );
      response.writeHead(request.method === 'POST' ? 200 : 405).end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, resolve);
  });
  return {
    url: `http://${host}:${options.port}/hooks`,
    failingUrl: `http://${host}:${options.port}/failing`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => log.end(resolve));
        server.closeAllConnections();
      }),
  };
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function verdict(secret: string, headers: IncomingHttpHeaders, rawBody: Buffer): string {
  try {
    verifyWebhookSignature({ secret, headers, rawBody });
    return 'valid';
  } catch (error) {
    if (error instanceof WebhookVerificationError) return `invalid (${error.message})`;
    throw error;
  }
}
