import {
  buildSchema,
  type ExecutionArgs,
  GraphQLError,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  parse,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import {
  complexityProblem,
  connectionComplexity,
  MAX_QUERY_COMPLEXITY,
  MAX_QUERY_DEPTH,
  socketExecutionArgs,
} from './query-limits';

// A schema as deep as anyone likes: limits must stop what the schema allows.
const schema = buildSchema(`
  type Node { id: ID! child: Node }
  type Query { node(id: ID!): Node }
  type Subscription { node: Node }
`);

function nested(depth: number): string {
  return `{ node(id: "1") { ${'child { '.repeat(depth - 1)}id${' }'.repeat(depth - 1)} } }`;
}

function codesOf(result: ExecutionArgs | GraphQLError[]) {
  if (!Array.isArray(result)) throw new Error('expected errors');
  return result.map((error) => ({ message: error.message, code: error.extensions['code'] }));
}

describe('socketExecutionArgs', () => {
  it(`accepts an operation ${MAX_QUERY_DEPTH} levels deep and refuses one level more`, () => {
    expect(
      Array.isArray(socketExecutionArgs(schema, { query: nested(MAX_QUERY_DEPTH) }, true)),
    ).toBe(false);

    expect(
      codesOf(socketExecutionArgs(schema, { query: nested(MAX_QUERY_DEPTH + 1) }, true)),
    ).toEqual([
      {
        message: `'' exceeds maximum operation depth of ${MAX_QUERY_DEPTH}`,
        code: 'GRAPHQL_VALIDATION_FAILED',
      },
    ]);
  });

  it('returns executable arguments with the variables and operation name', () => {
    const args = socketExecutionArgs(
      schema,
      {
        query: 'query One($id: ID!) { node(id: $id) { id } }',
        variables: { id: '7' },
        operationName: 'One',
      },
      true,
    );

    expect(args).toMatchObject({ schema, variableValues: { id: '7' }, operationName: 'One' });
  });

  it('codes syntax and validation errors like Apollo does over HTTP', () => {
    expect(codesOf(socketExecutionArgs(schema, { query: '{ node(' }, true))).toEqual([
      { message: expect.stringMatching(/^Syntax Error/), code: 'GRAPHQL_PARSE_FAILED' },
    ]);
    expect(codesOf(socketExecutionArgs(schema, { query: '{ nodes }' }, true))).toEqual([
      {
        message: 'Cannot query field "nodes" on type "Query". Did you mean "node"?',
        code: 'GRAPHQL_VALIDATION_FAILED',
      },
    ]);
  });

  it('refuses introspection, and hints at field names, only when introspection is on', () => {
    const query = '{ __schema { queryType { name } } }';

    expect(Array.isArray(socketExecutionArgs(schema, { query }, true))).toBe(false);
    expect(codesOf(socketExecutionArgs(schema, { query }, false))).toContainEqual({
      message: expect.stringContaining('introspection'),
      code: 'GRAPHQL_VALIDATION_FAILED',
    });
    expect(codesOf(socketExecutionArgs(schema, { query: '{ nodes }' }, false))).toEqual([
      { message: 'Cannot query field "nodes" on type "Query".', code: 'GRAPHQL_VALIDATION_FAILED' },
    ]);
  });
});

describe('complexityProblem', () => {
  const wide = (aliases: number) =>
    parse(
      `{ ${Array.from({ length: aliases }, (_, i) => `n${i}: node(id: "1") { id }`).join(' ')} }`,
    );

  it(`allows ${MAX_QUERY_COMPLEXITY} points and refuses more`, () => {
    expect(
      complexityProblem(schema, wide(MAX_QUERY_COMPLEXITY / 2), undefined, undefined),
    ).toBeUndefined();
    expect(
      complexityProblem(schema, wide(MAX_QUERY_COMPLEXITY / 2 + 1), undefined, undefined),
    ).toBe(
      `Operation is too complex: ${MAX_QUERY_COMPLEXITY + 2} points exceed the maximum of ${MAX_QUERY_COMPLEXITY}.`,
    );
  });

  it('leaves invalid variables to execution (BAD_USER_INPUT there)', () => {
    const document = parse('query ($id: ID!) { node(id: $id) { id } }');

    expect(
      complexityProblem(schema, document, { id: { not: 'an id' } }, undefined),
    ).toBeUndefined();
  });

  it('refuses a document whose fragments expand past the nodes the estimator walks', () => {
    const fragments = Array.from(
      { length: 6 },
      (_, i) =>
        `fragment F${i} on Node { ${Array.from({ length: 8 }, (_, j) => `a${j}: child { ...F${i + 1} }`).join(' ')} }`,
    ).join('\n');
    const document = parse(`{ node(id: "1") { ...F0 } }\n${fragments}\nfragment F6 on Node { id }`);

    expect(complexityProblem(schema, document, undefined, undefined)).toMatch(
      /maximum allowed number of nodes/,
    );
  });

  it('charges a paginated field per requested item', () => {
    const item = new GraphQLObjectType({ name: 'Item', fields: { id: { type: GraphQLString } } });
    const paged = new GraphQLSchema({
      query: new GraphQLObjectType({
        name: 'Query',
        fields: {
          items: {
            type: new GraphQLNonNull(new GraphQLList(item)),
            args: { first: { type: GraphQLInt } },
            extensions: { complexity: connectionComplexity },
          },
        },
      }),
    });

    expect(
      complexityProblem(paged, parse('{ items(first: 100) { id } }'), undefined, undefined),
    ).toBeUndefined();
    // default page (20) of 2 fields each, 30 times over: 30 × (1 + 20 × 2) = 1230
    const many = Array.from({ length: 30 }, (_, i) => `i${i}: items { id alsoId: id }`).join(' ');
    expect(complexityProblem(paged, parse(`{ ${many} }`), undefined, undefined)).toMatch(
      /1230 points/,
    );
  });
});
