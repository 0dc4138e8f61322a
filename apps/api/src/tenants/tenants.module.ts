import { Module } from '@nestjs/common';
import { TenantsController } from './tenants.controller';
import { TenantsResolver } from './tenants.resolver';
import { TenantsService } from './tenants.service';

@Module({
  controllers: [TenantsController],
  providers: [TenantsService, TenantsResolver],
  exports: [TenantsService],
})
export class TenantsModule {}
