import type { CodegenConfig } from '@graphql-codegen/cli';

/**
 * Typed documents from the control plane's reviewed schema: every `graphql(`…`)` call under src
 * gets its result and variables types in src/generated/gql (not committed; the `codegen` target
 * writes it before typecheck, lint, test and build).
 */
const config: CodegenConfig = {
  schema: '../control-plane/schema.gql',
  documents: ['src/**/*.{ts,tsx}', '!src/generated/**'],
  ignoreNoDocuments: true,
  generates: {
    'src/generated/gql/': {
      preset: 'client',
      config: {
        useTypeImports: true,
        enumsAsTypes: true,
        strictScalars: true,
        scalars: { DateTime: 'string' },
      },
      presetConfig: { fragmentMasking: false },
    },
  },
};

export default config;
