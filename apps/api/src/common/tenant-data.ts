import { Global, Injectable, Module } from '@nestjs/common';
import { PrismaService, type TenantTx, withTenant } from '@schedlab/db';

/** Tenant-confined transactions for the api's services (see @schedlab/db withTenant). */
@Injectable()
export class TenantData {
  constructor(private readonly prisma: PrismaService) {}

  run<T>(tenantId: string, work: (tx: TenantTx) => Promise<T>): Promise<T> {
    return withTenant(this.prisma, tenantId, work);
  }
}

@Global()
@Module({ providers: [TenantData], exports: [TenantData] })
export class TenantDataModule {}
