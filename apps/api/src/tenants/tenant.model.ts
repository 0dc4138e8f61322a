import { Field, ID, ObjectType } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';
import { z } from 'zod';

export const createTenantSchema = z.object({ name: z.string().trim().min(1).max(100) });
export type CreateTenantInput = z.infer<typeof createTenantSchema>;

export class CreateTenantBody {
  @ApiProperty({ example: 'acme', maxLength: 100 })
  name!: string;
}

@ObjectType('Tenant')
export class TenantView {
  @Field(() => ID)
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @Field(() => String)
  @ApiProperty()
  name!: string;

  @Field(() => Date)
  @ApiProperty({ type: String, format: 'date-time' })
  createdAt!: Date;
}
