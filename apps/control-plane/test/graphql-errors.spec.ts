import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_QUERY_COMPLEXITY, MAX_QUERY_TOKENS } from '../src/graphql/query-limits';
import { createUser, LOGIN, loginWithBearer, startTestApp, type TestApp } from './support/test-app';

let app: TestApp;
let token: string;

beforeAll(async () => {
  app = await startTestApp();
  token = await loginWithBearer(app, await createUser(app.prisma));
});
afterAll(() => app?.close());

describe('GraphQL endpoint', () => {
  it('answers { __typename } without a session', async () => {
    const response = await app.graphql('{ __typename }');

    expect(response.status).toBe(200);
    expect(response.body).toEqual({ data: { __typename: 'Query' } });
  });

  it('serves no landing page or playground', async () => {
    const response = await fetch(`${app.url}/graphql`, { headers: { accept: 'text/html' } });

    expect(response.headers.get('content-type') ?? '').not.toMatch(/html/);
  });

  it('refuses a cross-site simple POST (Apollo CSRF prevention)', async () => {
    const response = await fetch(`${app.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify({ query: '{ __typename }' }),
    });

    expect(response.status).toBe(400);
  });
});

describe('coded errors', () => {
  it('GRAPHQL_PARSE_FAILED for a syntax error', async () => {
    const response = await app.graphql('{ me { ');

    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([
      {
        message: 'Syntax Error: Expected Name, found <EOF>.',
        locations: [{ line: 1, column: 8 }],
        extensions: { code: 'GRAPHQL_PARSE_FAILED' },
      },
    ]);
  });

  it('GRAPHQL_VALIDATION_FAILED for an unknown field', async () => {
    const response = await app.graphql('{ nothingHere }');

    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([
      {
        message: 'Cannot query field "nothingHere" on type "Query".',
        locations: [{ line: 1, column: 3 }],
        extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
      },
    ]);
  });

  it('BAD_USER_INPUT for a variable of the wrong type', async () => {
    const response = await app.graphql(LOGIN, { input: { email: 42, password: 'x' } });

    expect(response.body.errors).toEqual([
      expect.objectContaining({ extensions: { code: 'BAD_USER_INPUT' } }),
    ]);
  });

  it('masks an internal failure: no message, stack or detail of the cause', async () => {
    // nothing listens on port 1: the login throttle cannot reach Redis
    const broken = await startTestApp({ REDIS_URL: 'redis://127.0.0.1:1' });
    try {
      const response = await broken.graphql(LOGIN, {
        input: { email: 'someone@example.com', password: 'whatever' },
      });

      expect(response.body).toEqual({
        data: null,
        errors: [
          {
            message: 'Internal server error.',
            locations: [{ line: 3, column: 5 }],
            path: ['login'],
            extensions: { code: 'INTERNAL_SERVER_ERROR' },
          },
        ],
      });
    } finally {
      await broken.close();
    }
  });
});

describe('query limits', () => {
  it(`refuses a document of more than ${MAX_QUERY_TOKENS} tokens before validating it`, async () => {
    const response = await app.graphql(`{ ${'__typename '.repeat(MAX_QUERY_TOKENS)}}`);

    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([
      expect.objectContaining({
        message: expect.stringMatching(/more th.. 10000 tokens. Parsing aborted/),
        extensions: { code: 'GRAPHQL_PARSE_FAILED' },
      }),
    ]);
  });

  it(`refuses an operation costing more than ${MAX_QUERY_COMPLEXITY} points`, async () => {
    const aliases = Array.from({ length: 600 }, (_, i) => `m${i}: me { id }`).join(' ');

    const response = await app.graphql(`{ ${aliases} }`, {}, { bearer: token });

    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      errors: [
        {
          message: `Operation is too complex: 1200 points exceed the maximum of ${MAX_QUERY_COMPLEXITY}.`,
          extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
        },
      ],
    });
  });

  it('refuses deeply nested introspection', async () => {
    const response = await app.graphql(
      '{ __schema { types { fields { type { fields { type { fields { type { name } } } } } } } } }',
    );

    expect(response.status).toBe(400);
    expect(response.body.errors?.[0]).toMatchObject({
      message: 'Maximum introspection depth exceeded',
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
    });
  });
});

describe('introspection', () => {
  it('is off with NODE_ENV=production, without schema hints in errors', async () => {
    // production needs a mail server's URL (nothing is sent here)
    const production = await startTestApp({
      NODE_ENV: 'production',
      SMTP_URL: 'smtp://127.0.0.1:2525',
    });
    try {
      const introspect = await production.graphql('{ __schema { queryType { name } } }');
      expect(introspect.body.errors?.[0]).toMatchObject({
        extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
      });
      const typo = await production.graphql('{ mee { id } }');
      expect(typo.body.errors?.[0]?.message).not.toMatch(/Did you mean/);
    } finally {
      await production.close();
    }
  });
});
