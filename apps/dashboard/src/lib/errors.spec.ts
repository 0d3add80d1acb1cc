import { GraphQLError } from 'graphql';
import { CombinedError } from 'urql';
import { describe, expect, it } from 'vitest';
import { apiError, formErrors } from './errors';

describe('apiError', () => {
  it('reads the code, message and field issues of a coded GraphQL error', () => {
    const error = new CombinedError({
      graphQLErrors: [
        new GraphQLError('must be at most 50', {
          extensions: {
            code: 'BAD_USER_INPUT',
            field: 'input.rules.0.capacity',
            issues: [
              { field: 'input.rules.0.capacity', message: 'must be at most 50' },
              { field: 'input.name', message: 'is required' },
            ],
          },
        }),
      ],
    });
    expect(apiError(error)).toEqual({
      code: 'BAD_USER_INPUT',
      message: 'must be at most 50',
      issues: [
        { field: 'input.rules.0.capacity', message: 'must be at most 50' },
        { field: 'input.name', message: 'is required' },
      ],
    });
  });

  it('says the control plane cannot be reached on a network error', () => {
    const error = new CombinedError({ networkError: new Error('Failed to fetch') });
    expect(apiError(error)).toMatchObject({ code: 'NETWORK', issues: [] });
  });

  it('keeps a single field of a CONFLICT as an issue', () => {
    const error = new CombinedError({
      graphQLErrors: [
        new GraphQLError('A plan with the slug free exists.', {
          extensions: { code: 'CONFLICT', field: 'input.slug' },
        }),
      ],
    });
    expect(apiError(error).issues).toEqual([
      { field: 'input.slug', message: 'A plan with the slug free exists.' },
    ]);
  });
});

describe('formErrors', () => {
  it('maps issues under the prefix to form paths, first message per field', () => {
    expect(
      formErrors([
        { field: 'input.rules.0.capacity', message: 'too big' },
        { field: 'input.rules.0.capacity', message: 'second' },
        { field: 'tenantId', message: 'elsewhere' },
      ]),
    ).toEqual({ 'rules.0.capacity': 'too big' });
  });
});
