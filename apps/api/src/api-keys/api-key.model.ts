import { Field, ID, ObjectType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { API_KEY_SCOPES } from '@schedlab/tenancy';
import type { ApiKey } from '@schedlab/db';
import { createZodDto } from 'nestjs-zod';
import { z } from 'zod';

export const createApiKeySchema = z
  .object({
    name: z.string().trim().min(1).max(100).meta({ example: 'ci' }),
    scopes: z.array(z.enum(API_KEY_SCOPES)).min(1).default(['read', 'write']),
  })
  .strict();
export type CreateApiKeyInput = z.infer<typeof createApiKeySchema>;

/** The create body's OpenAPI schema, derived from the zod schema that parses it. */
export class CreateApiKeyBody extends createZodDto(createApiKeySchema) {}

@ObjectType('ApiKey')
export class ApiKeyView {
  @Field(() => ID) @ApiProperty({ format: 'uuid' }) id!: string;
  @Field(() => String) @ApiProperty() name!: string;
  @Field(() => String, { description: 'First characters of the key, to tell keys apart' })
  @ApiProperty({ example: 'sl_AbCdEfGh' })
  prefix!: string;
  @Field(() => [String]) @ApiProperty({ enum: API_KEY_SCOPES, isArray: true }) scopes!: string[];
  @Field(() => Date) @ApiProperty({ type: String, format: 'date-time' }) createdAt!: Date;
  @Field(() => Date, { nullable: true })
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true })
  lastUsedAt!: Date | null;
  @Field(() => Date, { nullable: true })
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true })
  revokedAt!: Date | null;
}

@ObjectType('CreatedApiKey')
export class CreatedApiKeyView extends ApiKeyView {
  @Field(() => String, { description: 'The key itself: shown only in this response' })
  @ApiProperty({ description: 'The key itself: shown only in this response' })
  secret!: string;
}

export function toApiKeyView(row: ApiKey): ApiKeyView {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes,
    createdAt: row.createdAt,
    lastUsedAt: row.lastUsedAt,
    revokedAt: row.revokedAt,
  };
}
