import { Module } from '@nestjs/common';
import { ProfilesModule } from '../profiles/profiles.module';
import { AdminController } from './admin.controller';

/** Operator endpoints under /v1/admin (OPERATOR_TOKEN): tenants, shared profiles. */
@Module({ imports: [ProfilesModule], controllers: [AdminController] })
export class AdminModule {}
