import { Field, ID, ObjectType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { RUN_OPTIONS } from '@schedlab/analysis';
import { createZodDto } from 'nestjs-zod';
import { z } from 'zod';
import { JsonScalar } from '../common/json.scalar';
import { RunView } from '../runs/run.model';

const MAX_CHILDREN = 50;

export const submitSweepSchema = z
  .object({
    snapshotId: z.string().uuid(),
    scenarioId: z.string().uuid().optional(),
    /** Profile references as the runs API takes them ("name", "name@latest", "name@N"). */
    profiles: z
      .array(z.string().min(1).max(100))
      .min(1)
      .max(20)
      .default(['default'])
      .meta({ description: 'Profiles to compare', example: ['default', 'bin-packing'] }),
    seeds: z
      .array(z.number().int().min(0).max(2_147_483_647))
      .min(1)
      .max(20)
      .default([0])
      .meta({ description: 'Seeds to run each profile with', example: [0, 1, 2] }),
    options: RUN_OPTIONS.simulate
      .default({})
      .meta({ description: 'Engine options for every child (as for a simulate run)' }),
  })
  .strict()
  .superRefine((input, ctx) => {
    const children = input.profiles.length * input.seeds.length;
    if (children < 2)
      ctx.addIssue({
        code: 'custom',
        path: ['profiles'],
        message: 'a sweep needs at least two runs (profiles × seeds)',
      });
    if (children > MAX_CHILDREN)
      ctx.addIssue({
        code: 'custom',
        path: ['seeds'],
        message: `at most ${MAX_CHILDREN} runs (profiles × seeds), got ${children}`,
      });
  });
export type SubmitSweepInput = z.output<typeof submitSweepSchema>;

/** The submit body's OpenAPI schema, derived from the zod schema that parses it. */
export class SubmitSweepBody extends createZodDto(submitSweepSchema) {}

@ObjectType('Sweep', {
  description: 'A fan-out over profiles and seeds on one snapshot, compared when all runs finish',
})
export class SweepView {
  @Field(() => ID) @ApiProperty({ format: 'uuid' }) id!: string;
  @Field(() => RunView, { description: 'The parent run: queued/running until every child is final' })
  @ApiProperty({ type: RunView })
  parent!: RunView;
  @Field(() => [RunView]) @ApiProperty({ type: [RunView] }) runs!: RunView[];
  @Field(() => JsonScalar, {
    nullable: true,
    description: 'Scheduled counts, utilization spread, moved pods per run (when complete)',
  })
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, nullable: true })
  comparison!: unknown;
}
