import { Module } from '@nestjs/common';
import { ApiKeysController } from './api-keys.controller';
import { ApiKeysResolver } from './api-keys.resolver';
import { ApiKeysService } from './api-keys.service';

/** A tenant's API keys (admin scope): REST /v1/api-keys and GraphQL apiKeys, createApiKey, revokeApiKey. */
@Module({
  controllers: [ApiKeysController],
  providers: [ApiKeysService, ApiKeysResolver],
  exports: [ApiKeysService],
})
export class ApiKeysModule {}
