import { NestFactory } from '@nestjs/core';
import {
  Args,
  Field,
  GraphQLSchemaBuilderModule,
  GraphQLSchemaFactory,
  ObjectType,
  Query,
  Resolver,
} from '@nestjs/graphql';
import { createPrismaClient, newId, type PrismaClient } from '@sluice/db';
import { isObjectType } from 'graphql';
import { createTestDatabase, type TestDatabase } from '@sluice/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Connection,
  ConnectionType,
  encodeCursor,
  MAX_PAGE_SIZE,
  PageArgs,
  pageQuery,
  toConnection,
} from './pagination';
import { connectionComplexity } from './query-limits';

@ObjectType()
class Item {
  @Field()
  id!: string;
}

@ObjectType()
class ItemConnection extends ConnectionType(Item) {}

@Resolver()
class ItemsResolver {
  @Query(() => ItemConnection, { complexity: connectionComplexity })
  items(@Args() args: PageArgs): Connection<Item> {
    return toConnection<Item>([], pageQuery(args), 0, (item) => item.id);
  }
}

let database: TestDatabase;
let prisma: PrismaClient;
const ids = Array.from({ length: 45 }, (_, i) => `usr_page${String(i).padStart(2, '0')}`);

beforeAll(async () => {
  database = await createTestDatabase();
  prisma = createPrismaClient(database.url, { maxConnections: 2 });
  await prisma.user.createMany({ data: ids.map((id) => ({ id, email: `${id}@example.com` })) });
  // another kind of row in the same table must not be listed
  await prisma.user.create({
    data: { id: newId('user'), email: 'zz@example.com', disabledAt: new Date() },
  });
});
afterAll(async () => {
  await prisma?.$disconnect();
  await database?.drop();
});

/** A list as a later resolver writes one: Prisma keyset pagination over a stable order. */
async function listUsers(args: PageArgs) {
  const query = pageQuery(args);
  const where = { disabledAt: null };
  const [rows, totalCount] = await Promise.all([
    prisma.user.findMany({
      where,
      orderBy: { id: 'asc' },
      take: query.take,
      ...(query.after ? { cursor: { id: query.after }, skip: 1 } : {}),
    }),
    prisma.user.count({ where }),
  ]);
  return toConnection(rows, query, totalCount, (row) => row.id);
}

describe('cursor pagination', () => {
  it('walks a list page by page with first/after until hasNextPage is false', async () => {
    const seen: string[] = [];
    let after: string | null = null;
    let pages = 0;
    for (;;) {
      const page = await listUsers({ first: 20, after });
      pages++;
      expect(page.totalCount).toBe(45);
      expect(page.edges.map((e) => e.node.id)).toEqual(page.nodes.map((n) => n.id));
      seen.push(...page.nodes.map((n) => n.id));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }

    expect(pages).toBe(3);
    expect(seen).toEqual(ids);
  });

  it('defaults to 20 items and returns an empty last page with no cursor', async () => {
    expect((await listUsers({})).nodes).toHaveLength(20);

    const end = await listUsers({ after: encodeCursor(ids.at(-1)!) });
    expect(end).toEqual({
      edges: [],
      nodes: [],
      pageInfo: { hasNextPage: false, endCursor: null },
      totalCount: 45,
    });
  });

  it('keeps cursors opaque', async () => {
    const page = await listUsers({ first: 1 });

    expect(page.pageInfo.endCursor).not.toContain(ids[0]);
    expect(page.edges[0]?.cursor).toBe(page.pageInfo.endCursor);
  });

  it.each([0, -1, MAX_PAGE_SIZE + 1, 1.5])('refuses first: %d naming the argument', (first) => {
    expect(() => pageQuery({ first })).toThrow(
      expect.objectContaining({
        code: 'BAD_USER_INPUT',
        extensions: expect.objectContaining({ field: 'first' }),
      }),
    );
  });

  it.each(['garbage!', Buffer.from('usr_x').toString('base64url'), '', 'x'.repeat(201)])(
    'refuses after: %j that is not one of its cursors',
    (after) => {
      expect(() => pageQuery({ after })).toThrow(
        expect.objectContaining({
          code: 'BAD_USER_INPUT',
          extensions: expect.objectContaining({ field: 'after' }),
        }),
      );
    },
  );
});

describe('ConnectionType', () => {
  it('gives a list its connection, edge and page info types', async () => {
    const context = await NestFactory.createApplicationContext(GraphQLSchemaBuilderModule, {
      logger: false,
    });
    try {
      const schema = await context.get(GraphQLSchemaFactory).create([ItemsResolver]);

      const fields = (name: string) => {
        const type = schema.getType(name);
        if (!isObjectType(type)) throw new Error(`${name} is not an object type`);
        return Object.values(type.getFields()).map(
          (field) => `${field.name}: ${String(field.type)}`,
        );
      };
      expect(fields('ItemConnection')).toEqual([
        'edges: [ItemEdge!]!',
        'nodes: [Item!]!',
        'pageInfo: PageInfo!',
        'totalCount: Int!',
      ]);
      expect(fields('ItemEdge')).toEqual(['cursor: String!', 'node: Item!']);
      expect(fields('PageInfo')).toEqual(['hasNextPage: Boolean!', 'endCursor: String']);
      const items = schema.getQueryType()!.getFields()['items']!;
      expect(items.args.map((arg) => `${arg.name}: ${String(arg.type)}`)).toEqual([
        'first: Int',
        'after: String',
      ]);
      expect(items.extensions['complexity']).toBe(connectionComplexity);
    } finally {
      await context.close();
    }
  });
});
