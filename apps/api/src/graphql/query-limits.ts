import type { ApolloServerPlugin } from '@apollo/server';
import {
  GraphQLError,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type FragmentDefinitionNode,
} from 'graphql';
import { fieldExtensionsEstimator, getComplexity, simpleEstimator } from 'graphql-query-complexity';

export const MAX_QUERY_DEPTH = 8;
export const MAX_QUERY_COMPLEXITY = 10_000;

function depthOf(
  selectionSet: SelectionSetNode | undefined,
  fragments: Map<string, FragmentDefinitionNode>,
  seen: Set<string>,
): number {
  if (!selectionSet) return 0;
  let deepest = 0;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      deepest = Math.max(
        deepest,
        selection.selectionSet ? 1 + depthOf(selection.selectionSet, fragments, seen) : 1,
      );
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      deepest = Math.max(deepest, depthOf(selection.selectionSet, fragments, seen));
    } else {
      const name = selection.name.value;
      const fragment = fragments.get(name);
      if (fragment && !seen.has(name))
        deepest = Math.max(deepest, depthOf(fragment.selectionSet, fragments, new Set([...seen, name])));
    }
  }
  return deepest;
}

/**
 * Refuses operations nested deeper than MAX_QUERY_DEPTH or costlier than MAX_QUERY_COMPLEXITY
 * (each field costs 1, list fields with `first` cost that many times their children) before
 * anything runs, so one request cannot make the api load a whole cluster's placements N times.
 */
export function queryLimitsPlugin(): ApolloServerPlugin {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ request, document, operation, schema }) {
          const fragments = new Map(
            document.definitions
              .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
              .map((d) => [d.name.value, d]),
          );
          const depth = depthOf((operation as OperationDefinitionNode).selectionSet, fragments, new Set());
          if (depth > MAX_QUERY_DEPTH) {
            throw new GraphQLError(`Query depth ${depth} exceeds the limit of ${MAX_QUERY_DEPTH}`, {
              extensions: { code: 'query_too_deep', status: 400, details: { depth, limit: MAX_QUERY_DEPTH } },
            });
          }
          const complexity = getComplexity({
            schema,
            operationName: request.operationName ?? undefined,
            query: document,
            variables: request.variables ?? {},
            estimators: [fieldExtensionsEstimator(), simpleEstimator({ defaultComplexity: 1 })],
          });
          if (complexity > MAX_QUERY_COMPLEXITY) {
            throw new GraphQLError(
              `Query complexity ${complexity} exceeds the limit of ${MAX_QUERY_COMPLEXITY}`,
              {
                extensions: {
                  code: 'query_too_complex',
                  status: 400,
                  details: { complexity, limit: MAX_QUERY_COMPLEXITY },
                },
              },
            );
          }
        },
      };
    },
  };
}
