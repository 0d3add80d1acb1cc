import { type Client, createClient } from 'graphql-ws';
import WebSocket from 'ws';

export interface SocketResult {
  /** The first `next` payload, or undefined when the operation failed first. */
  next?: unknown;
  /** GraphQL errors of an `error` message. */
  errors?: unknown;
  /** The close code, when the socket closed before anything came. */
  closeCode?: number;
}

/** A graphql-ws client of `httpUrl`'s /graphql that never retries (a refusal must show). */
export function socketClient(
  httpUrl: string,
  connectionParams: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Client {
  return createClient({
    url: `${httpUrl.replace(/^http/, 'ws')}/graphql`,
    // Node 20 has no global WebSocket: `ws`, with the test's headers (cookies) on the upgrade
    webSocketImpl: class extends WebSocket {
      constructor(url: string, protocols: string[]) {
        super(url, protocols, { headers });
      }
    },
    connectionParams,
    retryAttempts: 0,
    // the connection stays open between operations until the test disposes the client
    lazyCloseTimeout: 60_000,
  });
}

/** Subscribes and settles on the first thing that happens: a value, an error or a close. */
export function firstResult(client: Client, query: string): Promise<SocketResult> {
  return new Promise((resolve) => {
    const unsubscribe = client.subscribe(
      { query },
      {
        next: (value) => {
          unsubscribe();
          resolve(value.errors ? { errors: value.errors } : { next: value.data });
        },
        error: (error: unknown) => {
          if (Array.isArray(error)) resolve({ errors: error });
          else if (
            typeof error === 'object' &&
            error !== null &&
            'code' in error &&
            typeof error.code === 'number'
          ) {
            resolve({ closeCode: error.code });
          } else resolve({ errors: [String(error)] });
        },
        complete: () => resolve({}),
      },
    );
  });
}
