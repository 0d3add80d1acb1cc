import type { ApolloServerPlugin } from '@apollo/server';
import type { ComplexityEstimator as FieldComplexityEstimator } from '@nestjs/graphql';
import depthLimit from 'graphql-depth-limit';
import {
  type DocumentNode,
  getOperationAST,
  getVariableValues,
  GraphQLError,
  type GraphQLSchema,
  NoSchemaIntrospectionCustomRule,
  parse,
  specifiedRules,
  validate,
  type ExecutionArgs,
} from 'graphql';
import {
  type ComplexityEstimator,
  fieldExtensionsEstimator,
  getComplexity,
  simpleEstimator,
} from 'graphql-query-complexity';
import { DEFAULT_PAGE_SIZE } from './pagination';

/** Deepest selection nesting an operation may have (introspection fields aside). */
export const MAX_QUERY_DEPTH = 10;
/** Most complexity points an operation may cost: 1 per field, times `first` under a connection. */
export const MAX_QUERY_COMPLEXITY = 1000;

/** Most lexical tokens a document may have: parsing stops there, before validation's costs. */
export const MAX_QUERY_TOKENS = 10_000;

export const depthLimitRule = depthLimit(MAX_QUERY_DEPTH);

const estimators: ComplexityEstimator[] = [
  fieldExtensionsEstimator(),
  simpleEstimator({ defaultComplexity: 1 }),
];

/** For paginated fields (`@Query(..., { complexity: connectionComplexity })`): a page costs per item. */
export const connectionComplexity: FieldComplexityEstimator = ({ args, childComplexity }) => {
  const first: unknown = args['first'];
  return 1 + childComplexity * (typeof first === 'number' ? first : DEFAULT_PAGE_SIZE);
};

/** How far an operation is over the complexity limit, said for a human; undefined within it. */
export function complexityProblem(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown> | undefined,
  operationName: string | undefined | null,
): string | undefined {
  const operation = getOperationAST(document, operationName);
  // execution reports a missing operation, and invalid variables as BAD_USER_INPUT
  if (!operation) return undefined;
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables ?? {});
  if (coerced.errors) return undefined;
  let complexity: number;
  try {
    complexity = getComplexity({
      schema,
      query: document,
      estimators,
      ...(variables ? { variables } : {}),
      ...(operationName ? { operationName } : {}),
    });
  } catch (error) {
    // e.g. more than the 10,000 nodes the estimator walks at most
    if (error instanceof GraphQLError) return error.message;
    throw error;
  }
  return complexity > MAX_QUERY_COMPLEXITY
    ? `Operation is too complex: ${complexity} points exceed the maximum of ${MAX_QUERY_COMPLEXITY}.`
    : undefined;
}

/** Refuses an HTTP operation over the complexity limit before it executes. */
export function queryComplexityPlugin(): ApolloServerPlugin {
  return {
    requestDidStart: () =>
      Promise.resolve({
        didResolveOperation: ({ schema, document, request, operationName }) => {
          const problem = complexityProblem(schema, document, request.variables, operationName);
          if (!problem) return Promise.resolve();
          // http.status: Apollo answers 400, not 500, for an error thrown after validation
          return Promise.reject(
            new GraphQLError(problem, {
              extensions: { code: 'GRAPHQL_VALIDATION_FAILED', http: { status: 400 } },
            }),
          );
        },
      }),
  };
}

export interface SocketOperation {
  query: string;
  operationName?: string | null;
  variables?: Record<string, unknown> | null;
}

/**
 * graphql-ws validates with graphql-js' rules alone: an operation over a WebSocket gets the same
 * limits as one over HTTP here (depth, complexity, introspection when switched off).
 */
export function socketExecutionArgs(
  schema: GraphQLSchema,
  operation: SocketOperation,
  introspection: boolean,
): ExecutionArgs | GraphQLError[] {
  let document: DocumentNode;
  try {
    document = parse(operation.query, { maxTokens: MAX_QUERY_TOKENS });
  } catch (error) {
    if (!(error instanceof GraphQLError)) throw error;
    return [
      new GraphQLError(error.message, {
        ...(error.source && error.positions
          ? { source: error.source, positions: error.positions }
          : {}),
        extensions: { code: 'GRAPHQL_PARSE_FAILED' },
      }),
    ];
  }
  const rules = [
    ...specifiedRules,
    depthLimitRule,
    ...(introspection ? [] : [NoSchemaIntrospectionCustomRule]),
  ];
  // like HTTP: no "Did you mean …?" hints about a schema clients may not introspect
  const errors = validate(schema, document, rules, { hideSuggestions: !introspection });
  if (errors.length > 0) {
    return errors.map(
      (error) =>
        new GraphQLError(error.message, {
          ...(error.nodes ? { nodes: error.nodes } : {}),
          extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
        }),
    );
  }
  const variables = operation.variables ?? undefined;
  const problem = complexityProblem(schema, document, variables, operation.operationName);
  if (problem)
    return [new GraphQLError(problem, { extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } })];
  return {
    schema,
    document,
    ...(variables ? { variableValues: variables } : {}),
    ...(operation.operationName ? { operationName: operation.operationName } : {}),
  };
}
