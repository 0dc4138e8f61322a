import type { Type } from '@nestjs/common';
import { Field, ObjectType } from '@nestjs/graphql';
import { encodeCursor, type Page } from '../common/pagination';

/**
 * GraphQL lists are Relay connections (edges { node cursor }, pageInfo), paginated forward with
 * `first` and `after`. REST keeps its `{items, nextCursor}` pages; both read the same service page,
 * and an edge's cursor is the same opaque cursor REST hands out.
 */
@ObjectType('PageInfo')
export class PageInfo {
  @Field(() => Boolean) hasNextPage!: boolean;
  @Field(() => Boolean, { description: 'Always false: pages are read forward (first/after)' })
  hasPreviousPage!: boolean;
  @Field(() => String, { nullable: true }) startCursor!: string | null;
  @Field(() => String, { nullable: true }) endCursor!: string | null;
}

export interface Edge<T> {
  node: T;
  cursor: string;
}

export interface Connection<T> {
  edges: Edge<T>[];
  pageInfo: PageInfo;
}

/** The `<Name>Connection` and `<Name>Edge` object types of a node type. */
export function ConnectionType<T>(node: Type<T>, name: string): Type<Connection<T>> {
  @ObjectType(`${name}Edge`)
  class EdgeType {
    // Transparent to the cost limit: a connection costs what a plain list of its nodes would.
    @Field(() => node, { complexity: 0 }) node!: T;
    @Field(() => String) cursor!: string;
  }

  @ObjectType(`${name}Connection`)
  class ConnectionOfNode {
    @Field(() => [EdgeType], { complexity: 0 }) edges!: EdgeType[];
    @Field(() => PageInfo) pageInfo!: PageInfo;
  }
  return ConnectionOfNode;
}

/** A service page as a connection; `keyOf` is the sort key the page's cursors encode. */
export function toConnection<T>(page: Page<T>, keyOf: (node: T) => string | number): Connection<T> {
  const edges = page.items.map((node) => ({ node, cursor: encodeCursor(keyOf(node)) }));
  return {
    edges,
    pageInfo: {
      hasNextPage: page.nextCursor !== null,
      hasPreviousPage: false,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges[edges.length - 1]?.cursor ?? null,
    },
  };
}
