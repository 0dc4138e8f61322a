import { Module } from '@nestjs/common';
import { SnapshotsController } from './snapshots.controller';
import { SnapshotsResolver } from './snapshots.resolver';
import { SnapshotsService } from './snapshots.service';

/** Cluster snapshots: REST /v1/snapshots and GraphQL snapshots, snapshot, importSnapshot, deleteSnapshot. */
@Module({
  controllers: [SnapshotsController],
  providers: [SnapshotsService, SnapshotsResolver],
  exports: [SnapshotsService],
})
export class SnapshotsModule {}
