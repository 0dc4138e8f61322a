import { timingSafeEqual } from 'node:crypto';
import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { ApiResponse as Response } from '../common/http-types';
import { type AppConfig, InjectAppConfig } from '@schedlab/config';
import { API_KEY_SCOPES, type ApiKeyScope, findApiKeyBySecret, isWellFormedApiKey } from '@schedlab/tenancy';
import { PrismaService } from '@schedlab/db';
import { ApiError } from '../common/api-error';
import { OPERATOR_ONLY, REQUIRED_SCOPE, requestOf, type TenantAuth } from './auth-context';
import { TenantRateLimiter } from './rate-limiter';

const unauthenticated = (code: string, message: string) => new ApiError(401, code, message);

/** Scopes are ordered: a key with a higher scope may do everything a lower one may. */
export function grants(scopes: readonly string[], required: ApiKeyScope): boolean {
  const rank = (s: string) => API_KEY_SCOPES.indexOf(s as ApiKeyScope);
  return scopes.some((s) => rank(s) >= rank(required));
}

function bearerToken(headers: Record<string, unknown> | undefined): string {
  const header = headers?.authorization ?? headers?.Authorization;
  if (typeof header !== 'string' || header === '') {
    throw unauthenticated(
      'missing_credentials',
      'Authorization header is missing; send "Authorization: Bearer <api key>"',
    );
  }
  const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
  if (!match)
    throw unauthenticated('malformed_credentials', 'Authorization header must be "Bearer <api key>"');
  return match[1]!;
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Authenticates routes marked @RequireScope (tenant API key, then per-tenant rate limit) or
 * @OperatorOnly (OPERATOR_TOKEN). Unmarked routes (health, docs) pass untouched.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly prisma: PrismaService,
    private readonly rateLimiter: TenantRateLimiter,
    @InjectAppConfig() private readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    const scope = this.reflector.getAllAndOverride<ApiKeyScope | undefined>(REQUIRED_SCOPE, targets);
    const operatorOnly = this.reflector.getAllAndOverride<boolean | undefined>(OPERATOR_ONLY, targets);
    if (!scope && !operatorOnly) return true;
    const req = requestOf(context);
    const token = bearerToken(req.headers);
    if (operatorOnly) {
      if (!this.config.operatorToken || !sameSecret(token, this.config.operatorToken)) {
        throw unauthenticated(
          'invalid_operator_token',
          'Operator endpoints need the operator token (SCHEDLAB_OPERATOR_TOKEN)',
        );
      }
      return true;
    }
    req.auth = await this.authenticate(token, scope!);
    await this.applyRateLimit(req.auth, context);
    return true;
  }

  private async authenticate(token: string, scope: ApiKeyScope): Promise<TenantAuth> {
    if (!isWellFormedApiKey(token)) {
      throw unauthenticated(
        'malformed_api_key',
        'API key is malformed: expected "sl_" followed by 43 base64url characters',
      );
    }
    const key = await findApiKeyBySecret(this.prisma, token);
    if (!key) throw unauthenticated('invalid_api_key', 'API key is not recognised');
    if (key.revokedAt)
      throw unauthenticated('revoked_api_key', `API key was revoked at ${key.revokedAt.toISOString()}`);
    if (!grants(key.scopes, scope)) {
      throw new ApiError(403, 'insufficient_scope', `This operation needs the "${scope}" scope`, {
        required: scope,
        granted: key.scopes,
      });
    }
    return { tenantId: key.tenantId, apiKeyId: key.id, scopes: key.scopes };
  }

  private async applyRateLimit(auth: TenantAuth, context: ExecutionContext): Promise<void> {
    const decision = await this.rateLimiter.consume(auth.tenantId);
    const res =
      context.getType<string>() === 'http' ? context.switchToHttp().getResponse<Response>() : undefined;
    res?.setHeader('X-RateLimit-Limit', String(decision.limit));
    res?.setHeader('X-RateLimit-Remaining', String(decision.remaining));
    if (!decision.allowed) {
      throw new ApiError(
        429,
        'rate_limited',
        `Rate limit of ${decision.limit} requests per minute exceeded`,
        {
          limit: decision.limit,
          retryAfterSeconds: decision.retryAfterSeconds,
        },
      );
    }
  }
}
