import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { SchedulerProfile } from '@schedlab/db';
import { z } from 'zod';
import { JsonScalar } from '../common/json.scalar';

export const PROFILE_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

export const profileUploadQuerySchema = z
  .object({
    name: z
      .string()
      .max(63)
      .regex(PROFILE_NAME, 'must be lowercase letters, digits and "-" (like "bin-packing")'),
    description: z.string().max(500).optional(),
  })
  .strict();

@ObjectType('SchedulerProfile', { description: 'One immutable version of a KubeSchedulerConfiguration.' })
export class ProfileView {
  @Field(() => ID) @ApiProperty({ format: 'uuid' }) id!: string;
  @Field(() => String) @ApiProperty() name!: string;
  @Field(() => Int) @ApiProperty() version!: number;
  @Field(() => String, { description: '"name@version", what runs record' })
  @ApiProperty({ example: 'bin-packing@1' })
  ref!: string;
  @Field(() => Boolean, { description: 'Shipped with Schedlab' }) @ApiProperty() builtIn!: boolean;
  @Field(() => Boolean, { description: 'Shared with every tenant by an operator' })
  @ApiProperty()
  shared!: boolean;
  @Field(() => String, { nullable: true })
  @ApiPropertyOptional({ type: String, nullable: true })
  description!: string | null;
  @Field(() => JsonScalar) @ApiProperty({ type: 'object', additionalProperties: true }) config!: unknown;
  @Field(() => Date) @ApiProperty({ type: String, format: 'date-time' }) createdAt!: Date;
}

export function toProfileView(row: SchedulerProfile): ProfileView {
  return {
    id: row.id,
    name: row.name,
    version: row.version,
    ref: `${row.name}@${row.version}`,
    builtIn: row.tenantId === null,
    shared: row.shared,
    description: row.description,
    config: row.config,
    createdAt: row.createdAt,
  };
}

export interface ProfileRef {
  name: string;
  /** undefined = latest */
  version?: number;
}

/** "name", "name@latest" or "name@3". */
export function parseProfileRef(text: string): ProfileRef | null {
  const match = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?)(?:@(latest|[1-9][0-9]{0,8}))?$/.exec(text);
  if (!match) return null;
  const version = match[3];
  return {
    name: match[1]!,
    version: version === undefined || version === 'latest' ? undefined : Number(version),
  };
}
