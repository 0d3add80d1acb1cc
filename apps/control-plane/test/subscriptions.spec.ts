import type { Client } from 'graphql-ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MAX_QUERY_DEPTH } from '../src/graphql/query-limits';
import { firstResult, socketClient } from './support/graphql-ws-client';
import {
  createUser,
  loginWithBearer,
  loginWithCookie,
  startTestApp,
  type TestApp,
  type TestUser,
} from './support/test-app';

const SERVER_TIME = 'subscription { serverTime }';

let app: TestApp;
let user: TestUser;
const clients: Client[] = [];

function client(params?: Record<string, unknown>, headers?: Record<string, string>): Client {
  const created = socketClient(app.url, params, headers);
  clients.push(created);
  return created;
}

beforeAll(async () => {
  app = await startTestApp();
  user = await createUser(app.prisma);
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.dispose()));
});
afterAll(() => app?.close());

describe('graphql-ws subscriptions', () => {
  it('closes a connection without a session with 4403', async () => {
    expect(await firstResult(client(), SERVER_TIME)).toEqual({ closeCode: 4403 });
  });

  it('closes a connection with an unknown or revoked token with 4403', async () => {
    const token = await loginWithBearer(app, user);
    await app.graphql('mutation { logout }', {}, { bearer: token });

    expect(await firstResult(client({ authorization: `Bearer ${token}` }), SERVER_TIME)).toEqual({
      closeCode: 4403,
    });
    expect(await firstResult(client({ authorization: 'Bearer nope' }), SERVER_TIME)).toEqual({
      closeCode: 4403,
    });
  });

  it('streams serverTime to a connection with a bearer token', async () => {
    const token = await loginWithBearer(app, user);
    const before = Date.now();

    const result = await firstResult(client({ authorization: `Bearer ${token}` }), SERVER_TIME);

    const serverTime = (result.next as { serverTime: string }).serverTime;
    expect(Date.parse(serverTime)).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
  });

  it('checks the session again for every operation of an open connection', async () => {
    const token = await loginWithBearer(app, user);
    const socket = client({ authorization: `Bearer ${token}` });
    expect((await firstResult(socket, SERVER_TIME)).next).toEqual({
      serverTime: expect.any(String),
    });

    await app.graphql('mutation { logout }', {}, { bearer: token });

    expect(await firstResult(socket, SERVER_TIME)).toEqual({
      errors: [
        expect.objectContaining({
          message: 'Your session has expired or was ended. Log in again.',
          extensions: { code: 'UNAUTHENTICATED' },
        }),
      ],
    });
  });

  it('takes the session cookie only together with the CSRF token in the parameters', async () => {
    const { cookies, csrf } = await loginWithCookie(app, user);
    const cookie = `sluice_session=${cookies['sluice_session']}`;

    expect(await firstResult(client({}, { cookie }), SERVER_TIME)).toEqual({ closeCode: 4403 });
    expect(
      await firstResult(client({ csrfToken: 'x'.repeat(43) }, { cookie }), SERVER_TIME),
    ).toEqual({
      closeCode: 4403,
    });
    const accepted = await firstResult(client({ csrfToken: csrf }, { cookie }), SERVER_TIME);
    expect(accepted.next).toEqual({ serverTime: expect.any(String) });
  });

  it('applies the same depth and complexity limits as HTTP', async () => {
    const token = await loginWithBearer(app, user);
    const socket = client({ authorization: `Bearer ${token}` });
    const deep = `{ me { ${'a { '.repeat(MAX_QUERY_DEPTH)}id${' }'.repeat(MAX_QUERY_DEPTH)} } }`;
    const wide = `{ ${Array.from({ length: 600 }, (_, i) => `m${i}: me { id }`).join(' ')} }`;

    expect(await firstResult(socket, deep)).toEqual({
      errors: expect.arrayContaining([
        expect.objectContaining({
          message: `'' exceeds maximum operation depth of ${MAX_QUERY_DEPTH}`,
          extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
        }),
      ]),
    });
    expect(await firstResult(socket, wide)).toEqual({
      errors: [
        expect.objectContaining({
          message: expect.stringMatching(/^Operation is too complex/),
          extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
        }),
      ],
    });
  });

  it('answers queries over the socket with the session of the connection, errors formatted', async () => {
    const token = await loginWithBearer(app, user);
    const socket = client({ authorization: `Bearer ${token}` });

    expect(await firstResult(socket, '{ me { id } }')).toEqual({ next: { me: { id: user.id } } });
    expect(
      await firstResult(
        socket,
        'mutation { login(input: { email: "bad", password: "x" }) { token } }',
      ),
    ).toEqual({
      errors: [
        expect.objectContaining({
          message: 'must be an email address',
          extensions: expect.objectContaining({ code: 'BAD_USER_INPUT', field: 'input.email' }),
        }),
      ],
    });
  });
});
