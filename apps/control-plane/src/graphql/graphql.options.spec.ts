import { parseEnv } from '@sluice/config';
import { describe, expect, it } from 'vitest';
import type { RequestAuthService } from '../auth/request-auth.service';
import { envSchema } from '../env';
import { formatError } from './format-error';
import { graphqlOptions } from './graphql.options';
import { depthLimitRule, MAX_QUERY_TOKENS } from './query-limits';

const unusedAuth = {} as RequestAuthService;

function optionsFor(env: Record<string, string>) {
  return graphqlOptions(
    // production needs a mail server's URL
    parseEnv(envSchema, { DATABASE_URL: 'postgresql://x/y', SMTP_URL: 'smtp://mail:1025', ...env }),
    unusedAuth,
  );
}

describe('graphqlOptions', () => {
  it('turns introspection off in production unless told otherwise', () => {
    expect(optionsFor({}).introspection).toBe(true);
    expect(optionsFor({ NODE_ENV: 'production' })).toMatchObject({
      introspection: false,
      hideSchemaDetailsFromClientErrors: true,
    });
    expect(
      optionsFor({ NODE_ENV: 'production', CONTROL_PLANE_INTROSPECTION: 'true' }).introspection,
    ).toBe(true);
    expect(optionsFor({ CONTROL_PLANE_INTROSPECTION: 'false' }).introspection).toBe(false);
  });

  // the HTTP depth limit: the schema is not yet deep enough for an end-to-end test of it
  it('limits HTTP operations and masks errors', () => {
    expect(optionsFor({})).toMatchObject({
      playground: false,
      includeStacktraceInErrorResponses: false,
      validationRules: [depthLimitRule],
      parseOptions: { maxTokens: MAX_QUERY_TOKENS },
      formatError,
    });
  });
});
