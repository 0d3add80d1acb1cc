import { createClient as createWsClient } from 'graphql-ws';
import { cacheExchange, Client, fetchExchange, subscriptionExchange } from 'urql';
import { CSRF_COOKIE, readCookie } from './cookies';

const csrfToken = () => readCookie(document.cookie, CSRF_COOKIE) ?? '';

/**
 * The browser's GraphQL client: the control plane through the dashboard's own origin (`/graphql`,
 * proxied by the dashboard's server), with the session cookie and the CSRF token echoed as
 * `x-csrf-token` (in the WebSocket's connection params for subscriptions). Lists are read
 * cache-and-network, so a page shows what it had at once and refreshes.
 */
export function createGraphqlClient(): Client {
  const origin = window.location;
  const ws = createWsClient({
    url: `${origin.protocol === 'https:' ? 'wss' : 'ws'}://${origin.host}/graphql`,
    lazy: true,
    connectionParams: () => ({ csrfToken: csrfToken() }),
  });
  return new Client({
    url: '/graphql',
    requestPolicy: 'cache-and-network',
    // POST always: the control plane refuses GETs that could be sent cross-site (CSRF)
    preferGetMethod: false,
    fetchOptions: () => ({
      credentials: 'same-origin',
      headers: { 'x-csrf-token': csrfToken() },
    }),
    exchanges: [
      cacheExchange,
      fetchExchange,
      subscriptionExchange({
        forwardSubscription: (request) => ({
          subscribe: (sink) => ({
            unsubscribe: ws.subscribe({ ...request, query: request.query ?? '' }, sink),
          }),
        }),
      }),
    ],
  });
}
