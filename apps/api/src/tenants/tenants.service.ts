import { ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { Prisma, PrismaService } from '@schedlab/db';
import type { CreateTenantInput, TenantView } from './tenant.model';

@Injectable()
export class TenantsService {
  constructor(private readonly prisma: PrismaService) {}

  async create(input: CreateTenantInput): Promise<TenantView> {
    try {
      return await this.prisma.tenant.create({ data: { name: input.name } });
    } catch (error) {
      if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
        throw new ConflictException(`Tenant "${input.name}" already exists`);
      }
      throw error;
    }
  }

  async get(id: string): Promise<TenantView> {
    const tenant = await this.prisma.tenant.findUnique({ where: { id } });
    if (!tenant) throw new NotFoundException(`Tenant ${id} not found`);
    return tenant;
  }
}
