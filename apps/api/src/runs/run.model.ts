import { Field, Float, ID, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { RUN_TYPES, type RunType } from '@schedlab/analysis';
import { PlacementStatus, RunStatus, type Placement, type Run } from '@schedlab/db';
import { createZodDto } from 'nestjs-zod';
import { JsonScalar } from '../common/json.scalar';
import { ClaimDeviceView, DeviceClassDevicesView } from './run-devices.model';
import { submitRunSchema } from './run-input';

registerEnumType(RunStatus, { name: 'RunStatus' });
registerEnumType(PlacementStatus, { name: 'PlacementStatus' });

/** A pod explanation's detail: the stored compact record, or the full one replayed on demand. */
export enum ExplanationDetail {
  compact = 'compact',
  full = 'full',
}
registerEnumType(ExplanationDetail, { name: 'ExplanationDetail' });

export const FINAL_RUN_STATUSES: ReadonlySet<RunStatus> = new Set([
  RunStatus.succeeded,
  RunStatus.failed,
  RunStatus.cancelled,
]);

/** The submit body's OpenAPI schema, derived from the zod schema that parses it. */
export class SubmitRunBody extends createZodDto(submitRunSchema) {}

/**
 * The run types as a GraphQL enum, built from the analysis registry's list. GraphQL names cannot
 * hold '-', so `nodes-needed` is `nodes_needed` on the wire (resolvers see 'nodes-needed').
 */
export const RunTypeEnum = Object.fromEntries(
  RUN_TYPES.map((type) => [type.replace(/-/g, '_'), type]),
) as Record<string, RunType>;
registerEnumType(RunTypeEnum, {
  name: 'RunType',
  description: 'What a run analyses (the REST API spells nodes_needed "nodes-needed")',
});

@ObjectType('Run')
export class RunView {
  @Field(() => ID) @ApiProperty({ format: 'uuid' }) id!: string;
  @Field(() => RunTypeEnum) @ApiProperty({ enum: RUN_TYPES, enumName: 'RunType' }) type!: RunType;
  @Field(() => RunStatus) @ApiProperty({ enum: RunStatus, enumName: 'RunStatus' }) status!: RunStatus;
  @Field(() => ID) @ApiProperty({ format: 'uuid' }) snapshotId!: string;
  @Field(() => ID, { nullable: true }) @ApiPropertyOptional({ type: String, nullable: true }) scenarioId!:
    string | null;
  @Field(() => String, { description: '"name@version" resolved at submit' }) @ApiProperty() profile!: string;
  @Field(() => Int) @ApiProperty() seed!: number;
  @Field(() => JsonScalar) @ApiProperty({ type: 'object', additionalProperties: true }) options!: unknown;
  @Field(() => String, { nullable: true }) @ApiPropertyOptional({ type: String, nullable: true }) phase!:
    string | null;
  @Field(() => Float) @ApiProperty() percent!: number;
  @Field(() => Int) @ApiProperty() podsProcessed!: number;
  @Field(() => Int, { nullable: true }) @ApiPropertyOptional({ type: Number, nullable: true }) podsTotal!:
    number | null;
  @Field(() => String, { nullable: true }) @ApiPropertyOptional({ type: String, nullable: true }) error!:
    string | null;
  @Field(() => String, { nullable: true })
  @ApiPropertyOptional({ type: String, nullable: true })
  engineVersion!: string | null;
  @Field(() => Int) @ApiProperty() attempts!: number;
  @Field(() => Date, { nullable: true })
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true })
  cancelRequestedAt!: Date | null;
  @Field(() => ID, { nullable: true }) @ApiPropertyOptional({ type: String, nullable: true }) parentId!:
    string | null;
  @Field(() => Date) @ApiProperty({ type: String, format: 'date-time' }) createdAt!: Date;
  @Field(() => Date, { nullable: true })
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true })
  startedAt!: Date | null;
  @Field(() => Date, { nullable: true })
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true })
  finishedAt!: Date | null;
  @Field(() => Int, { nullable: true, description: 'finishedAt - startedAt' })
  @ApiPropertyOptional({ type: Number, nullable: true })
  durationMs!: number | null;
}

export function toRunView(row: Run): RunView {
  return {
    id: row.id,
    type: row.type as RunType,
    status: row.status,
    snapshotId: row.snapshotId,
    scenarioId: row.scenarioId,
    profile: `${row.profileName}@${row.profileVersion}`,
    seed: row.seed,
    options: row.options,
    phase: row.phase,
    percent: row.percent,
    podsProcessed: row.podsProcessed,
    podsTotal: row.podsTotal,
    error: row.error,
    engineVersion: row.engineVersion,
    attempts: row.attempts,
    cancelRequestedAt: row.cancelRequestedAt,
    parentId: row.parentId,
    createdAt: row.createdAt,
    startedAt: row.startedAt,
    finishedAt: row.finishedAt,
    durationMs: row.startedAt && row.finishedAt ? row.finishedAt.getTime() - row.startedAt.getTime() : null,
  };
}

@ObjectType('Placement')
export class PlacementView {
  @Field(() => Int) @ApiProperty() ordinal!: number;
  @Field(() => String) @ApiProperty() namespace!: string;
  @Field(() => String) @ApiProperty() name!: string;
  @Field(() => String, { nullable: true }) @ApiPropertyOptional({ type: String, nullable: true }) ownerKind!:
    string | null;
  @Field(() => String, { nullable: true }) @ApiPropertyOptional({ type: String, nullable: true }) ownerName!:
    string | null;
  @Field(() => String, { nullable: true }) @ApiPropertyOptional({ type: String, nullable: true }) node!:
    string | null;
  @Field(() => String, { nullable: true }) @ApiPropertyOptional({ type: String, nullable: true }) zone!:
    string | null;
  @Field(() => PlacementStatus)
  @ApiProperty({ enum: PlacementStatus, enumName: 'PlacementStatus' })
  status!: PlacementStatus;
  @Field(() => Int) @ApiProperty() priority!: number;
  @Field(() => String, { nullable: true }) @ApiPropertyOptional({ type: String, nullable: true }) message!:
    string | null;
  @Field(() => String, { nullable: true })
  @ApiPropertyOptional({ type: String, nullable: true })
  nominatedNode!: string | null;
  @Field(() => [String], { nullable: true })
  @ApiPropertyOptional({ type: [String], nullable: true })
  victims!: string[] | null;
  @Field(() => [ClaimDeviceView], {
    nullable: true,
    description: "DRA: the devices the pod's claims were allocated when it was placed",
  })
  @ApiPropertyOptional({
    type: [ClaimDeviceView],
    nullable: true,
    description: "DRA: the devices the pod's claims were allocated when it was placed",
  })
  devices!: ClaimDeviceView[] | null;
}

/** `devices`: the pod's, from its stored explanation (none when absent). */
export function toPlacementView(row: Placement, devices: ClaimDeviceView[] | null = null): PlacementView {
  return {
    ordinal: row.ordinal,
    namespace: row.namespace,
    name: row.name,
    ownerKind: row.ownerKind,
    ownerName: row.ownerName,
    node: row.node,
    zone: row.zone,
    status: row.status,
    priority: row.priority,
    message: row.message,
    nominatedNode: row.nominatedNode,
    victims: (row.victims as string[] | null) ?? null,
    devices,
  };
}

/** A REST page of placements (GraphQL: PlacementConnection). */
export class PlacementPage {
  @ApiProperty({ type: [PlacementView] }) items!: PlacementView[];
  @ApiPropertyOptional({ type: String, nullable: true })
  nextCursor!: string | null;
}

@ObjectType('UnschedulableGroup')
export class UnschedulableGroup {
  @Field(() => String) @ApiProperty() reason!: string;
  @Field(() => Int) @ApiProperty() count!: number;
  @Field(() => [String], { description: 'Up to 20 pods ("namespace/name")' })
  @ApiProperty({ type: [String] })
  pods!: string[];
}

@ObjectType('RunResult')
export class RunResultView {
  @Field(() => JsonScalar, { description: 'Counts, per-node and per-zone utilization' })
  @ApiProperty({ type: 'object', additionalProperties: true })
  summary!: unknown;
  @Field(() => JsonScalar, { nullable: true })
  @ApiPropertyOptional({ type: 'object', nullable: true, additionalProperties: true })
  storageSummary!: unknown;
  @Field(() => [DeviceClassDevicesView], {
    nullable: true,
    description:
      'A simulate run on a cluster with DeviceClasses: DRA devices per class and node once the run is over (total, allocated, free, tainted-free)',
  })
  @ApiPropertyOptional({
    type: [DeviceClassDevicesView],
    nullable: true,
    description:
      'A simulate run on a cluster with DeviceClasses: DRA devices per class and node once the run is over (total, allocated, free, tainted-free)',
  })
  devices!: DeviceClassDevicesView[] | null;
  @Field(() => JsonScalar, {
    nullable: true,
    description:
      'capacity / nodes-needed / resilience / compare / deschedule result (deschedule: evictions with their new node or FitError, before/after figures, oscillation); for a simulate run with a scenario, its steps and `storage` (timeline of storage events, dataLoss: destroyed, retained, stranded, waiting)',
  })
  @ApiPropertyOptional({
    type: 'object',
    nullable: true,
    additionalProperties: true,
    description:
      'capacity / nodes-needed / resilience / compare / deschedule result (deschedule: evictions with their new node or FitError, before/after figures, oscillation); for a simulate run with a scenario, its steps and `storage` (timeline of storage events, dataLoss: destroyed, retained, stranded, waiting)',
  })
  analysis!: unknown;
}

@ObjectType('RunProgress')
export class RunProgressView {
  @Field(() => ID) runId!: string;
  @Field(() => RunStatus) status!: RunStatus;
  @Field(() => String, { nullable: true }) phase!: string | null;
  @Field(() => Float) percent!: number;
  @Field(() => Int) podsProcessed!: number;
  @Field(() => Int, { nullable: true }) podsTotal!: number | null;
}
