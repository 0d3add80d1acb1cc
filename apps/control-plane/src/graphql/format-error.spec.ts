import { Logger } from '@nestjs/common';
import { GraphQLError, locatedError } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { AppError } from './app-error';
import { formatError } from './format-error';

/** What graphql-js hands Apollo when a resolver at `path` throws `error`. */
function fromResolver(error: unknown) {
  const located = locatedError(error, undefined, ['tenant']);
  return formatError(located.toJSON(), located);
}

// masked errors are logged; keep the test output to the results
beforeAll(() => Logger.overrideLogger(false));

describe('formatError', () => {
  it.each([
    [
      AppError.badUserInput([
        { field: 'input.slug', message: 'must match ^[a-z0-9][a-z0-9-]{1,62}$' },
        { field: 'input.name', message: 'is required' },
      ]),
      {
        code: 'BAD_USER_INPUT',
        field: 'input.slug',
        issues: [
          { field: 'input.slug', message: 'must match ^[a-z0-9][a-z0-9-]{1,62}$' },
          { field: 'input.name', message: 'is required' },
        ],
      },
    ],
    [AppError.unauthenticated(), { code: 'UNAUTHENTICATED' }],
    [AppError.forbidden(), { code: 'FORBIDDEN' }],
    [AppError.notFound('No tenant acme.'), { code: 'NOT_FOUND' }],
    [
      AppError.conflict('The slug acme is taken.', 'input.slug'),
      { code: 'CONFLICT', field: 'input.slug' },
    ],
    [
      AppError.tooManyRequests('Slow down.', 60),
      { code: 'TOO_MANY_REQUESTS', retryAfterSeconds: 60 },
    ],
  ])('keeps the message and extensions of %s', (error, extensions) => {
    expect(fromResolver(error)).toEqual({ message: error.message, path: ['tenant'], extensions });
  });

  it('masks any other error thrown by a resolver', () => {
    const leaky = new Error('connect ECONNREFUSED 10.0.0.5:5432 (password=hunter2)');
    const apolloLike = new GraphQLError('Nope', {
      extensions: { code: 'BAD_USER_INPUT', secret: 1 },
    });

    for (const error of [leaky, apolloLike, 'a thrown string']) {
      expect(fromResolver(error)).toEqual({
        message: 'Internal server error.',
        path: ['tenant'],
        extensions: { code: 'INTERNAL_SERVER_ERROR' },
      });
    }
  });

  it('keeps request errors (no path) with only their code', () => {
    const error = new GraphQLError('Cannot query field "x" on type "Query".', {
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED', stacktrace: ['at …'] },
    });

    expect(formatError(error.toJSON(), error)).toEqual({
      message: 'Cannot query field "x" on type "Query".',
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
    });
  });

  it('masks an error without a code, such as a failed context', () => {
    const error = new GraphQLError('Context creation failed: connect ECONNREFUSED');

    expect(formatError(error.toJSON(), error)).toEqual({
      message: 'Internal server error.',
      extensions: { code: 'INTERNAL_SERVER_ERROR' },
    });
  });
});
