/** What graphql-ws hands the context factory for a subscription. */
interface WsContextInput {
  connectionParams?: Record<string, unknown>;
  extra?: { request?: { headers?: Record<string, unknown> } };
}

/**
 * GraphQL context: over HTTP the request itself; over graphql-ws a request-like object whose
 * Authorization comes from the connection's `connectionParams` (browsers cannot set headers
 * on WebSockets), so one AuthGuard serves queries, mutations and subscriptions.
 */
export function graphqlContext(input: { req?: unknown } & WsContextInput) {
  if (input.req) return { req: input.req };
  const params = input.connectionParams ?? {};
  const authorization =
    params.authorization ?? params.Authorization ?? input.extra?.request?.headers?.authorization;
  return { req: { headers: { authorization } } };
}
