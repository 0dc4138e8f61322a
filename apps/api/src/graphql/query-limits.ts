import type { ApolloServerPlugin } from '@apollo/server';
import {
  GraphQLError,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type FragmentDefinitionNode,
} from 'graphql';
import { fieldExtensionsEstimator, getComplexity, simpleEstimator } from 'graphql-query-complexity';

/** Defaults of GRAPHQL_MAX_DEPTH, GRAPHQL_MAX_COMPLEXITY and GRAPHQL_MAX_ALIASES. */
export const MAX_QUERY_DEPTH = 8;
export const MAX_QUERY_COMPLEXITY = 10_000;
export const MAX_QUERY_ALIASES = 30;

export interface GraphqlLimits {
  maxDepth: number;
  maxComplexity: number;
  maxAliases: number;
}

/**
 * What a field costs beyond the default 1, in "rows read" (docs/api.md): a run's result is one
 * large JSON row (summaries, per-node utilization, analyses), an explanation reads a pod's
 * filter and score detail, `unschedulable` groups every unschedulable placement of a run.
 */
export const FIELD_COST = { result: 500, explanation: 100, unschedulable: 200, page: 10 } as const;

function refuse(code: string, message: string, details: Record<string, number>): GraphQLError {
  // extensions.http sets the HTTP status (Apollo strips it from the body).
  return new GraphQLError(message, { extensions: { code, status: 400, details, http: { status: 400 } } });
}

interface Walk {
  depth: number;
  aliases: number;
}

function walk(
  selectionSet: SelectionSetNode | undefined,
  fragments: Map<string, FragmentDefinitionNode>,
  seen: Set<string>,
): Walk {
  if (!selectionSet) return { depth: 0, aliases: 0 };
  let depth = 0;
  let aliases = 0;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      if (selection.alias) aliases++;
      const inner = walk(selection.selectionSet, fragments, seen);
      depth = Math.max(depth, selection.selectionSet ? 1 + inner.depth : 1);
      aliases += inner.aliases;
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      const inner = walk(selection.selectionSet, fragments, seen);
      depth = Math.max(depth, inner.depth);
      aliases += inner.aliases;
    } else {
      const name = selection.name.value;
      const fragment = fragments.get(name);
      if (fragment && !seen.has(name)) {
        const inner = walk(fragment.selectionSet, fragments, new Set([...seen, name]));
        depth = Math.max(depth, inner.depth);
        aliases += inner.aliases;
      }
    }
  }
  return { depth, aliases };
}

/**
 * Refuses, before anything runs, operations nested deeper than maxDepth, with more aliased fields
 * than maxAliases (300 aliases of one costly field is one request doing 300 requests' work), or
 * costlier than maxComplexity (FIELD_COST, and list fields with `first` cost that many times
 * their children), so one request cannot hold the api for seconds.
 */
export function queryLimitsPlugin(
  limits: GraphqlLimits = {
    maxDepth: MAX_QUERY_DEPTH,
    maxComplexity: MAX_QUERY_COMPLEXITY,
    maxAliases: MAX_QUERY_ALIASES,
  },
): ApolloServerPlugin {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ request, document, operation, schema }) {
          const fragments = new Map(
            document.definitions
              .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
              .map((d) => [d.name.value, d]),
          );
          if (operation?.operation === 'subscription') {
            // graphql-ws serves subscriptions; over HTTP there is no stream to answer on.
            throw refuse(
              'subscription_over_http',
              'Subscriptions are served over graphql-ws (WebSocket) only',
              {},
            );
          }
          const { depth, aliases } = walk(
            (operation as OperationDefinitionNode).selectionSet,
            fragments,
            new Set(),
          );
          if (depth > limits.maxDepth) {
            throw refuse('query_too_deep', `Query depth ${depth} exceeds the limit of ${limits.maxDepth}`, {
              depth,
              limit: limits.maxDepth,
            });
          }
          if (aliases > limits.maxAliases) {
            throw refuse(
              'too_many_aliases',
              `Query has ${aliases} aliased fields; the limit is ${limits.maxAliases}`,
              { aliases, limit: limits.maxAliases },
            );
          }
          let complexity: number;
          try {
            complexity = getComplexity({
              schema,
              operationName: request.operationName ?? undefined,
              query: document,
              variables: request.variables ?? {},
              estimators: [fieldExtensionsEstimator(), simpleEstimator({ defaultComplexity: 1 })],
            });
          } catch (error) {
            // Bad variables: execution reports them properly; cost them at the limit meanwhile.
            if (error instanceof GraphQLError) return;
            throw error;
          }
          if (complexity > limits.maxComplexity) {
            throw refuse(
              'query_too_complex',
              `Query complexity ${complexity} exceeds the limit of ${limits.maxComplexity}`,
              { complexity, limit: limits.maxComplexity },
            );
          }
        },
      };
    },
  };
}

/**
 * HTTP semantics REST has: a GraphQL request refused by the rate limit answers 429 with
 * Retry-After (and X-RateLimit-*), not 200 with an error in the body.
 */
export function httpStatusPlugin(): ApolloServerPlugin {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ response }) {
          if (response.body.kind !== 'single') return;
          const limited = response.body.singleResult.errors?.find(
            (e) => e.extensions?.code === 'rate_limited',
          );
          if (!limited) return;
          response.http.status = 429;
          const details = limited.extensions?.details as
            { retryAfterSeconds?: number; limit?: number } | undefined;
          if (details?.retryAfterSeconds !== undefined) {
            response.http.headers.set('retry-after', String(details.retryAfterSeconds));
          }
          if (details?.limit !== undefined) {
            response.http.headers.set('x-ratelimit-limit', String(details.limit));
            response.http.headers.set('x-ratelimit-remaining', '0');
          }
        },
      };
    },
  };
}
