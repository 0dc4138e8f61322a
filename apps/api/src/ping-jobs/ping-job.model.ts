import { Field, ID, ObjectType, registerEnumType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { JobStatus, type PingJob } from '@schedlab/db';
import { pingResultSchema } from '@schedlab/jobs';
import { z } from 'zod';

registerEnumType(JobStatus, { name: 'JobStatus' });

export const createPingJobSchema = z.object({
  tenantId: z.string().uuid(),
  message: z.string().max(1000),
});
export type CreatePingJobInput = z.infer<typeof createPingJobSchema>;
const pingPayloadSchema = createPingJobSchema.pick({ message: true });

export class CreatePingJobBody {
  @ApiProperty({ format: 'uuid' })
  tenantId!: string;

  @ApiProperty({ example: 'hello', maxLength: 1000 })
  message!: string;
}

@ObjectType('PingResult')
export class PingResultView {
  @Field(() => String)
  @ApiProperty()
  echo!: string;

  @Field(() => String, { description: 'Which worker process handled the job' })
  @ApiProperty()
  processedBy!: string;

  @Field(() => Date)
  @ApiProperty({ type: String, format: 'date-time' })
  processedAt!: Date;
}

@ObjectType('PingJob', { description: 'A trivial job that travels api → queue → worker → database.' })
export class PingJobView {
  @Field(() => ID)
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @Field(() => ID)
  @ApiProperty({ format: 'uuid' })
  tenantId!: string;

  @Field(() => JobStatus)
  @ApiProperty({ enum: JobStatus, enumName: 'JobStatus' })
  status!: JobStatus;

  @Field(() => String)
  @ApiProperty()
  message!: string;

  @Field(() => PingResultView, { nullable: true })
  @ApiPropertyOptional({ type: PingResultView, nullable: true })
  result!: PingResultView | null;

  @Field(() => String, { nullable: true })
  @ApiPropertyOptional({ type: String, nullable: true })
  error!: string | null;

  @Field(() => Date)
  @ApiProperty({ type: String, format: 'date-time' })
  createdAt!: Date;

  @Field(() => Date, { nullable: true })
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true })
  startedAt!: Date | null;

  @Field(() => Date, { nullable: true })
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true })
  finishedAt!: Date | null;
}

/** The public shape of a ping_jobs row, with its JSON columns validated. */
export function toPingJobView(row: PingJob): PingJobView {
  const result = row.result === null ? null : pingResultSchema.parse(row.result);
  return {
    id: row.id,
    tenantId: row.tenantId,
    status: row.status,
    message: pingPayloadSchema.parse(row.payload).message,
    result: result && { ...result, processedAt: new Date(result.processedAt) },
    error: row.error,
    createdAt: row.createdAt,
    startedAt: row.startedAt,
    finishedAt: row.finishedAt,
  };
}
