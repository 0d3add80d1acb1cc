import { type Type } from '@nestjs/common';
import { ArgsType, Field, Int, ObjectType } from '@nestjs/graphql';
import { AppError } from './app-error';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

/** Forward cursor pagination arguments of every list (`first`, `after`). */
@ArgsType()
export class PageArgs {
  @Field(() => Int, {
    nullable: true,
    description: `Items to return, 1 to ${MAX_PAGE_SIZE} (default ${DEFAULT_PAGE_SIZE}).`,
  })
  first?: number | null;

  @Field(() => String, {
    nullable: true,
    description: "The previous page's `pageInfo.endCursor`, to continue after it.",
  })
  after?: string | null;
}

@ObjectType()
export class PageInfo {
  @Field({ description: 'Whether items follow this page.' })
  hasNextPage!: boolean;

  @Field(() => String, { nullable: true, description: "The last item's cursor (null: no items)." })
  endCursor!: string | null;
}

export interface Edge<T> {
  cursor: string;
  node: T;
}

export interface Connection<T> {
  edges: Edge<T>[];
  nodes: T[];
  pageInfo: PageInfo;
  totalCount: number;
}

/**
 * The GraphQL type of a page of `node`s, to extend with the connection's name:
 * `@ObjectType() class TenantConnection extends ConnectionType(Tenant) {}`.
 */
export function ConnectionType<T>(node: Type<T>, name = node.name): Type<Connection<T>> {
  @ObjectType(`${name}Edge`)
  class EdgeType implements Edge<T> {
    @Field({ description: 'Pass as `after` to continue after this item.' })
    cursor!: string;

    @Field(() => node)
    node!: T;
  }

  @ObjectType({ isAbstract: true })
  abstract class ConnectionBase implements Connection<T> {
    @Field(() => [EdgeType])
    edges!: EdgeType[];

    @Field(() => [node], { description: 'The items of `edges`, without their cursors.' })
    nodes!: T[];

    @Field(() => PageInfo)
    pageInfo!: PageInfo;

    @Field(() => Int, { description: 'Items in the whole list, not only this page.' })
    totalCount!: number;
  }
  return ConnectionBase as Type<Connection<T>>;
}

/** What a Prisma `findMany` needs for one page (`take` is one more, to see whether more follow). */
export interface PageQuery {
  first: number;
  take: number;
  /** The key of the item to continue after (Prisma `cursor` + `skip: 1`). */
  after: string | undefined;
}

const CURSOR_PREFIX = 'c1:';

/** Cursors are opaque to clients: the base64url of a versioned row key. */
export function encodeCursor(key: string): string {
  return Buffer.from(`${CURSOR_PREFIX}${key}`, 'utf8').toString('base64url');
}

/** Validates `first` and `after` (BAD_USER_INPUT naming the argument). */
export function pageQuery(args: PageArgs): PageQuery {
  const first = args.first ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(first) || first < 1 || first > MAX_PAGE_SIZE) {
    throw AppError.badUserInput([
      { field: 'first', message: `must be between 1 and ${MAX_PAGE_SIZE}, got ${first}` },
    ]);
  }
  if (args.after === undefined || args.after === null) {
    return { first, take: first + 1, after: undefined };
  }
  const decoded = /^[A-Za-z0-9_-]{1,200}$/.test(args.after)
    ? Buffer.from(args.after, 'base64url').toString('utf8')
    : '';
  if (!decoded.startsWith(CURSOR_PREFIX) || decoded.length === CURSOR_PREFIX.length) {
    throw AppError.badUserInput([
      { field: 'after', message: 'is not a cursor of this list (use pageInfo.endCursor)' },
    ]);
  }
  return { first, take: first + 1, after: decoded.slice(CURSOR_PREFIX.length) };
}

/** The page of `rows` fetched with `query` (at most `take` rows, in the list's order). */
export function toConnection<T>(
  rows: readonly T[],
  query: PageQuery,
  totalCount: number,
  keyOf: (row: T) => string,
): Connection<T> {
  const nodes = rows.slice(0, query.first);
  const edges = nodes.map((node) => ({ cursor: encodeCursor(keyOf(node)), node }));
  return {
    edges,
    nodes,
    pageInfo: { hasNextPage: rows.length > query.first, endCursor: edges.at(-1)?.cursor ?? null },
    totalCount,
  };
}
