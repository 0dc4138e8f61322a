/**
 * A scenario run's storage as typed fields (GraphQL `RunResult.storage`, REST
 * `GET /v1/runs/{id}/storage`): the volumes and claims the cluster is left with, the storage
 * events of every step in `kubectl describe` columns, and the data-loss report. All of it is read
 * from what the worker stored (RunResult.analysis.storage, @schedlab/scenarios storageReport), the
 * same report `schedlab simulate --scenario -o json` prints as `scenario.storage`.
 */
import { Field, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { StorageReport } from '@schedlab/scenarios';
import { z } from 'zod';

@ObjectType('StorageVolume', { description: 'A PersistentVolume once the last step settled' })
export class StorageVolumeView {
  @Field(() => String) @ApiProperty() name!: string;
  @Field(() => String, { nullable: true, description: '"namespace/name" of spec.claimRef' })
  @ApiPropertyOptional({ type: String, nullable: true })
  claim!: string | null;
  @Field(() => String, { description: 'Available, Bound, Released, Failed' }) @ApiProperty() phase!: string;
  @Field(() => String) @ApiProperty() reclaimPolicy!: string;
  @Field(() => String) @ApiProperty() storageClass!: string;
  @Field(() => String) @ApiProperty() capacity!: string;
  @Field(() => String, { nullable: true, description: 'The zone(s) its node affinity pins it to' })
  @ApiPropertyOptional({ type: String, nullable: true })
  zone!: string | null;
  @Field(() => [String], { description: 'Required node affinity, one term each: "key in [v1, v2]"' })
  @ApiProperty({ type: [String] })
  nodeAffinity!: string[];
  @Field(() => String, { nullable: true, description: 'The node whose disk holds a local volume' })
  @ApiPropertyOptional({ type: String, nullable: true })
  localTo!: string | null;
}

@ObjectType('StorageClaim', { description: 'A PersistentVolumeClaim once the last step settled' })
export class StorageClaimView {
  @Field(() => String) @ApiProperty() namespace!: string;
  @Field(() => String) @ApiProperty() name!: string;
  @Field(() => String, { description: 'Pending, Bound, Lost, or Terminating (pvc-protection)' })
  @ApiProperty()
  phase!: string;
  @Field(() => String, { nullable: true }) @ApiPropertyOptional({ type: String, nullable: true }) volume!:
    string | null;
  @Field(() => String) @ApiProperty() storageClass!: string;
  @Field(() => String, { description: 'spec.resources.requests.storage' }) @ApiProperty() request!: string;
  @Field(() => String, { nullable: true, description: 'Why a WaitForFirstConsumer claim is still unbound' })
  @ApiPropertyOptional({ type: String, nullable: true })
  waitingReason!: string | null;
}

@ObjectType('StorageEvent', {
  description: 'One event of the storage timeline, as kubectl describe lists it',
})
export class StorageEventView {
  @Field(() => Int, {
    nullable: true,
    description: "The scenario step's index; null for the cluster before the first step",
  })
  @ApiPropertyOptional({ type: Number, nullable: true })
  step!: number | null;
  @Field(() => String, { description: 'The step, e.g. "deleteNamespace shop"' })
  @ApiProperty()
  operation!: string;
  @Field(() => String, { description: 'e.g. "PersistentVolumeClaim/shop/data-orders-0"' })
  @ApiProperty()
  object!: string;
  @Field(() => String, { description: 'Normal or Warning' }) @ApiProperty() type!: string;
  @Field(() => String) @ApiProperty() reason!: string;
  @Field(() => String, { description: 'The component that recorded it' }) @ApiProperty() from!: string;
  @Field(() => String) @ApiProperty() message!: string;
}

@ObjectType('StoragePhaseChange', { description: 'A claim or volume whose phase a step changed' })
export class StoragePhaseChangeView {
  @Field(() => Int, { nullable: true }) @ApiPropertyOptional({ type: Number, nullable: true }) step!:
    number | null;
  @Field(() => String) @ApiProperty() operation!: string;
  @Field(() => String) @ApiProperty() object!: string;
  @Field(() => String, { description: '"none" when it did not exist before' }) @ApiProperty() from!: string;
  @Field(() => String, { description: '"deleted" when it is gone after' }) @ApiProperty() to!: string;
}

/** What every data-loss entry names about its volume (the fields the CLI's table shows first). */
@ObjectType({ isAbstract: true })
abstract class VolumeAtRiskView {
  @Field(() => String) @ApiProperty() volume!: string;
  @Field(() => String) @ApiProperty() claim!: string;
  @Field(() => String) @ApiProperty() storageClass!: string;
  @Field(() => String) @ApiProperty() capacity!: string;
  @Field(() => String, { nullable: true }) @ApiPropertyOptional({ type: String, nullable: true }) zone!:
    string | null;
}

@ObjectType('VolumeFate', { description: 'A volume a step destroyed or left retained without a claim' })
export class VolumeFateView extends VolumeAtRiskView {
  @Field(() => String) @ApiProperty() reclaimPolicy!: string;
  @Field(() => String, { description: 'deleted, retained, recycled, failed or orphaned' })
  @ApiProperty()
  outcome!: string;
  @Field(() => Boolean) @ApiProperty() dataDestroyed!: boolean;
  @Field(() => String) @ApiProperty() why!: string;
}

@ObjectType('StrandedVolume', { description: 'A bound volume no reachable node can attach' })
export class StrandedVolumeView extends VolumeAtRiskView {
  @Field(() => [String], { description: 'Pods waiting for it' })
  @ApiProperty({ type: [String] })
  pods!: string[];
  @Field(() => String, { nullable: true }) @ApiPropertyOptional({ type: String, nullable: true }) localTo!:
    string | null;
  @Field(() => String) @ApiProperty() why!: string;
}

@ObjectType('WaitingClaim', { description: 'A WaitForFirstConsumer claim still unbound' })
export class WaitingClaimView {
  @Field(() => String) @ApiProperty() claim!: string;
  @Field(() => String) @ApiProperty() storageClass!: string;
  @Field(() => [String]) @ApiProperty({ type: [String] }) pods!: string[];
  @Field(() => String) @ApiProperty() why!: string;
}

@ObjectType('DataLoss', { description: "A scenario's cumulative data-loss report" })
export class DataLossView {
  @Field(() => [VolumeFateView], { description: 'Data destroyed (reclaim policy Delete, or Recycle)' })
  @ApiProperty({ type: [VolumeFateView] })
  destroyed!: VolumeFateView[];
  @Field(() => [VolumeFateView], {
    description: 'Data kept with nothing using it (Released, Failed, PV gone)',
  })
  @ApiProperty({ type: [VolumeFateView] })
  retained!: VolumeFateView[];
  @Field(() => [StrandedVolumeView])
  @ApiProperty({ type: [StrandedVolumeView] })
  stranded!: StrandedVolumeView[];
  @Field(() => [WaitingClaimView]) @ApiProperty({ type: [WaitingClaimView] }) waiting!: WaitingClaimView[];
}

@ObjectType('RunStorage', {
  description: 'What a simulate run with a scenario did to claims, volumes and data',
})
export class RunStorageView {
  @Field(() => [StorageVolumeView]) @ApiProperty({ type: [StorageVolumeView] }) volumes!: StorageVolumeView[];
  @Field(() => [StorageClaimView]) @ApiProperty({ type: [StorageClaimView] }) claims!: StorageClaimView[];
  @Field(() => [StorageEventView]) @ApiProperty({ type: [StorageEventView] }) events!: StorageEventView[];
  @Field(() => [StoragePhaseChangeView])
  @ApiProperty({ type: [StoragePhaseChangeView] })
  phaseChanges!: StoragePhaseChangeView[];
  @Field(() => DataLossView) @ApiProperty({ type: DataLossView }) dataLoss!: DataLossView;
}

/**
 * The stored report as the typed view; null when the run has none (no scenario, or a cluster that
 * never had a claim or volume). Runs stored before volumes and claims were recorded show none.
 */
export function runStorageOf(analysis: unknown): RunStorageView | null {
  const stored = (analysis as { storage?: Partial<StorageReport> } | null)?.storage;
  if (!stored?.dataLoss) return null;
  const timeline = stored.timeline ?? [];
  const loss = stored.dataLoss;
  const fate = (f: StorageReport['dataLoss']['destroyed'][number]): VolumeFateView => ({
    volume: f.volume,
    claim: f.claim,
    storageClass: f.storageClass,
    capacity: f.capacity,
    zone: f.zone ?? null,
    reclaimPolicy: f.reclaimPolicy,
    outcome: f.outcome,
    dataDestroyed: f.dataDestroyed,
    why: f.reason,
  });
  return {
    volumes: stored.volumes ?? [],
    claims: stored.claims ?? [],
    events: timeline.flatMap((s) => s.events.map((e) => ({ step: s.index, operation: s.operation, ...e }))),
    phaseChanges: timeline.flatMap((s) =>
      s.transitions.map((t) => ({ step: s.index, operation: s.operation, ...t })),
    ),
    dataLoss: {
      destroyed: loss.destroyed.map(fate),
      retained: loss.retained.map(fate),
      stranded: loss.stranded.map((s) => ({
        volume: s.volume,
        claim: s.claim,
        storageClass: s.storageClass,
        capacity: s.capacity,
        zone: s.zone ?? null,
        pods: s.pods,
        localTo: s.localTo ?? null,
        why: s.reason,
      })),
      waiting: loss.waiting.map((w) => ({
        claim: w.claim,
        storageClass: w.storageClass,
        pods: w.pods,
        why: w.reason,
      })),
    },
  };
}

/** Filters of `GET …/storage` and of the GraphQL fields' arguments (all optional, exact match). */
export const storageQuerySchema = z
  .object({
    zone: z.string().max(253).optional(),
    phase: z.string().max(63).optional(),
    storageClass: z.string().max(253).optional(),
    namespace: z.string().max(63).optional(),
    step: z.coerce.number().int().min(0).optional(),
    type: z.enum(['Normal', 'Warning']).optional(),
  })
  .strict();
export type StorageQuery = z.infer<typeof storageQuerySchema>;

/** The view with each list narrowed by the filters that apply to it. */
export function filterRunStorage(storage: RunStorageView, q: StorageQuery): RunStorageView {
  return {
    ...storage,
    volumes: storage.volumes.filter(
      (v) =>
        (q.zone === undefined || v.zone === q.zone) &&
        (q.phase === undefined || v.phase === q.phase) &&
        (q.storageClass === undefined || v.storageClass === q.storageClass),
    ),
    claims: storage.claims.filter(
      (c) =>
        (q.namespace === undefined || c.namespace === q.namespace) &&
        (q.phase === undefined || c.phase === q.phase) &&
        (q.storageClass === undefined || c.storageClass === q.storageClass),
    ),
    events: storage.events.filter(
      (e) => (q.step === undefined || e.step === q.step) && (q.type === undefined || e.type === q.type),
    ),
    phaseChanges: storage.phaseChanges.filter((t) => q.step === undefined || t.step === q.step),
  };
}
