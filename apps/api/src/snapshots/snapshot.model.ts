import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { Snapshot } from '@schedlab/db';
import { z } from 'zod';
import { JsonScalar } from '../common/json.scalar';

const labelKey = z
  .string()
  .regex(/^[A-Za-z0-9]([-A-Za-z0-9_./]*[A-Za-z0-9])?$/, 'must be a label key like "env" or "team.io/name"')
  .max(253);

export const snapshotImportQuerySchema = z
  .object({
    name: z.string().trim().min(1, 'is required').max(200),
    /** "env=prod,team=payments" */
    labels: z.string().max(4000).optional(),
  })
  .strict();

export const labelsSchema = z.record(labelKey, z.string().max(63));

/** "a=1,b=2" → {a: "1", b: "2"}, validated like Kubernetes label keys. */
export function parseLabelList(text: string | undefined): Record<string, string> {
  if (!text) return {};
  const entries = text
    .split(',')
    .filter(Boolean)
    .map((pair) => {
      const eq = pair.indexOf('=');
      return eq < 0 ? [pair.trim(), ''] : [pair.slice(0, eq).trim(), pair.slice(eq + 1).trim()];
    });
  return labelsSchema.parse(Object.fromEntries(entries));
}

@ObjectType('SnapshotWarning')
export class SnapshotWarningView {
  @Field(() => String) @ApiProperty() kind!: string;
  @Field(() => Int) @ApiProperty() count!: number;
  @Field(() => String) @ApiProperty() message!: string;
}

@ObjectType('Snapshot', { description: 'An imported cluster dump; immutable.' })
export class SnapshotView {
  @Field(() => ID) @ApiProperty({ format: 'uuid' }) id!: string;
  @Field(() => String) @ApiProperty() name!: string;
  @Field(() => JsonScalar)
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } })
  labels!: Record<string, string>;
  @Field(() => String, { description: 'sha256 of the canonical content' })
  @ApiProperty()
  contentHash!: string;
  @Field(() => JsonScalar, { description: 'Objects per kind' })
  @ApiProperty({ type: 'object', additionalProperties: { type: 'integer' } })
  counts!: Record<string, number>;
  @Field(() => [SnapshotWarningView])
  @ApiProperty({ type: [SnapshotWarningView] })
  warnings!: SnapshotWarningView[];
  @Field(() => Int, { description: 'Canonical JSON size' }) @ApiProperty() sizeBytes!: number;
  @Field(() => Date) @ApiProperty({ type: String, format: 'date-time' }) createdAt!: Date;
}

export class SnapshotImportResult extends SnapshotView {
  @ApiPropertyOptional({
    description: 'true when identical content was already stored; that snapshot is returned',
  })
  duplicate!: boolean;
}

export class SnapshotPage {
  @ApiProperty({ type: [SnapshotView] }) items!: SnapshotView[];
  @ApiPropertyOptional({ type: String, nullable: true }) nextCursor!: string | null;
}

export type SnapshotSummaryRow = Omit<Snapshot, 'content'>;

export function toSnapshotView(row: SnapshotSummaryRow): SnapshotView {
  return {
    id: row.id,
    name: row.name,
    labels: row.labels as Record<string, string>,
    contentHash: row.contentHash,
    counts: row.counts as Record<string, number>,
    warnings: row.warnings as unknown as SnapshotWarningView[],
    sizeBytes: row.sizeBytes,
    createdAt: row.createdAt,
  };
}
