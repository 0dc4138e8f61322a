import { createParamDecorator, type ExecutionContext, SetMetadata } from '@nestjs/common';
import { GqlExecutionContext } from '@nestjs/graphql';
import type { ApiKeyScope } from '@schedlab/tenancy';

/** Who is calling: the tenant of the API key, and what that key may do. */
export interface TenantAuth {
  tenantId: string;
  apiKeyId: string;
  scopes: string[];
}

export const REQUIRED_SCOPE = 'schedlab:required-scope';
export const OPERATOR_ONLY = 'schedlab:operator-only';

/** The route needs an API key with this scope (admin ⊇ write ⊇ read). */
export const RequireScope = (scope: ApiKeyScope) => SetMetadata(REQUIRED_SCOPE, scope);
/** The route needs the operator token (OPERATOR_TOKEN), not a tenant key. */
export const OperatorOnly = () => SetMetadata(OPERATOR_ONLY, true);

type AuthCarrier = { auth?: TenantAuth };

/** The request object behind an HTTP or GraphQL execution (subscriptions: the connection's). */
export function requestOf(context: ExecutionContext): AuthCarrier & { headers?: Record<string, unknown> } {
  if (context.getType<string>() === 'graphql') {
    const ctx = GqlExecutionContext.create(context).getContext<{
      req?: AuthCarrier & { headers?: Record<string, unknown> };
    }>();
    return ctx.req ?? (ctx as never);
  }
  return context.switchToHttp().getRequest();
}

/** Injects the authenticated tenant into a controller or resolver method. */
export const CurrentTenant = createParamDecorator((_data: unknown, context: ExecutionContext): TenantAuth => {
  const auth = requestOf(context).auth;
  if (!auth) throw new Error('CurrentTenant used on a route without @RequireScope');
  return auth;
});
