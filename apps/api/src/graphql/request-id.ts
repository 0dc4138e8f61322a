import type { ApolloServerPlugin } from '@apollo/server';
import type { IncomingMessage } from 'node:http';
import { requestIdOf } from '../common/error-body';

/**
 * Errors Apollo raises itself (a query that does not parse or validate, an unknown operation)
 * never pass through ApiErrorFilter; this gives them the request's id as well, so every GraphQL
 * error names the id of the x-request-id header and the log line.
 */
export function requestIdPlugin(): ApolloServerPlugin<{ req?: IncomingMessage }> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ response, contextValue }) {
          if (response.body.kind !== 'single' || !contextValue.req) return;
          const errors = response.body.singleResult.errors;
          if (!errors?.length) return;
          const requestId = requestIdOf(contextValue.req);
          if (requestId === undefined) return;
          response.body.singleResult.errors = errors.map((error) =>
            error.extensions?.requestId === undefined
              ? { ...error, extensions: { ...error.extensions, requestId } }
              : error,
          );
        },
      };
    },
  };
}
