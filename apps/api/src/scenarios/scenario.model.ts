import { Field, ID, ObjectType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { Scenario } from '@schedlab/db';
import { createZodDto } from 'nestjs-zod';
import { z } from 'zod';
import { JsonScalar } from '../common/json.scalar';

export const createScenarioSchema = z
  .object({
    name: z.string().trim().min(1).max(200).meta({ example: 'drain zone a' }),
    snapshotId: z.string().uuid().optional(),
    document: z
      .unknown()
      .refine((d) => d !== undefined, 'is required')
      .meta({ description: 'A scenario document (docs/scenarios.md)' }),
  })
  .strict();
export type CreateScenarioInput = z.infer<typeof createScenarioSchema>;

/** The create body's OpenAPI schema, derived from the zod schema that parses it. */
export class CreateScenarioBody extends createZodDto(createScenarioSchema) {}

@ObjectType('Scenario', { description: 'A named what-if scenario, validated with the engine.' })
export class ScenarioView {
  @Field(() => ID) @ApiProperty({ format: 'uuid' }) id!: string;
  @Field(() => String) @ApiProperty() name!: string;
  @Field(() => ID, { nullable: true })
  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true })
  snapshotId!: string | null;
  @Field(() => JsonScalar) @ApiProperty({ type: 'object', additionalProperties: true }) document!: unknown;
  @Field(() => Date) @ApiProperty({ type: String, format: 'date-time' }) createdAt!: Date;
}

export function toScenarioView(row: Scenario): ScenarioView {
  return {
    id: row.id,
    name: row.name,
    snapshotId: row.snapshotId,
    document: row.document,
    createdAt: row.createdAt,
  };
}
