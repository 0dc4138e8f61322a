import { Global, Module } from '@nestjs/common';
import { PrismaService } from './prisma.service';
import { REPOSITORIES } from './repositories';

/** The Prisma client and every repository, for any module to inject. */
@Global()
@Module({ providers: [PrismaService, ...REPOSITORIES], exports: [PrismaService, ...REPOSITORIES] })
export class DbModule {}
