import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { createProxyServer } from 'http-proxy-3';

/** The one path the browser reaches the control plane by: GraphQL over HTTP and its WebSocket. */
export const GRAPHQL_PATH = '/graphql';

export function isGraphqlRequest(url: string | undefined): boolean {
  if (url === undefined) return false;
  const path = url.split('?', 1)[0];
  return path === GRAPHQL_PATH;
}

export interface ControlPlaneProxy {
  web(req: IncomingMessage, res: ServerResponse): void;
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  close(): void;
}

/**
 * Forwards `/graphql` (HTTP, and the WebSocket of subscriptions) to the control plane, so the
 * browser talks to one origin: the session cookie and the CSRF cookie are the dashboard's, and no
 * CORS is needed. `X-Forwarded-For` carries the browser's address, for the control plane's login
 * throttle (it believes it only from proxies in CONTROL_PLANE_TRUSTED_PROXIES).
 */
export function createControlPlaneProxy(target: string): ControlPlaneProxy {
  const proxy = createProxyServer({ target, xfwd: true, ws: true, changeOrigin: false });
  proxy.on('error', (error, _req, res) => {
    // an HTTP request gets a problem; a WebSocket's socket is closed (its client reconnects)
    if (res && 'writeHead' in res) {
      const response = res as ServerResponse;
      if (!response.headersSent) {
        response.writeHead(502, { 'content-type': 'application/problem+json' });
      }
      response.end(
        JSON.stringify({
          type: 'about:blank',
          title: 'Bad Gateway',
          status: 502,
          detail: `The control plane did not answer: ${error.message}`,
        }),
      );
    } else {
      (res as Duplex | undefined)?.destroy();
    }
  });
  return {
    web: (req, res) => proxy.web(req, res),
    upgrade: (req, socket, head) => proxy.ws(req, socket, head),
    close: () => proxy.close(),
  };
}
