import { GraphQLSchemaHost } from '@nestjs/graphql';
import { printSchema } from 'graphql';
import { join } from 'node:path';
import { format, resolveConfig } from 'prettier';
import { describe, expect, it } from 'vitest';
import { startTestApp } from './support/test-app';

describe('GraphQL schema', () => {
  // `schema.gql` is the reviewed API: `npx vitest run -u` rewrites it after a deliberate change,
  // and CI (which never updates snapshots) fails when it is stale.
  it('matches the committed schema.gql', async () => {
    const app = await startTestApp();
    try {
      const { schema } = app.app.get(GraphQLSchemaHost);
      const file = join(__dirname, '..', 'schema.gql');
      // formatted as the repository formats files, so `prettier --check` agrees with it
      const sdl = await format(printSchema(schema), {
        ...(await resolveConfig(file)),
        parser: 'graphql',
      });
      await expect(sdl).toMatchFileSnapshot('../schema.gql');
    } finally {
      await app.close();
    }
  });
});
