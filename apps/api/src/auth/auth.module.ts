import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AuthGuard } from './auth.guard';
import { TenantRateLimiter } from './rate-limiter';

@Global()
@Module({
  providers: [TenantRateLimiter, AuthGuard, { provide: APP_GUARD, useExisting: AuthGuard }],
  exports: [TenantRateLimiter],
})
export class AuthModule {}
