import { Module } from '@nestjs/common';
import { SweepsController } from './sweeps.controller';
import { SweepsResolver } from './sweeps.resolver';
import { SweepsService } from './sweeps.service';

@Module({ controllers: [SweepsController], providers: [SweepsService, SweepsResolver] })
export class SweepsModule {}
