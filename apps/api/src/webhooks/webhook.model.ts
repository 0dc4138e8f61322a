import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { registerEndpointSchema, WEBHOOK_EVENT_TYPES } from '@schedlab/webhooks';
import { createZodDto } from 'nestjs-zod';
import { JsonScalar } from '../common/json.scalar';

/** The register body's OpenAPI schema, derived from the zod schema that parses it. */
export class RegisterWebhookBody extends createZodDto(registerEndpointSchema) {}

@ObjectType('WebhookEndpoint')
export class WebhookEndpointView {
  @Field(() => ID) @ApiProperty({ format: 'uuid' }) id!: string;
  @Field(() => String) @ApiProperty() url!: string;
  @Field(() => [String]) @ApiProperty({ enum: WEBHOOK_EVENT_TYPES, isArray: true }) eventTypes!: string[];
  @Field(() => Boolean) @ApiProperty() enabled!: boolean;
  @Field(() => String, { nullable: true })
  @ApiPropertyOptional({ type: String, nullable: true })
  disabledReason!: string | null;
  @Field(() => Int) @ApiProperty() consecutiveFailures!: number;
  @Field(() => Date) @ApiProperty({ type: String, format: 'date-time' }) createdAt!: Date;
  @Field(() => Date) @ApiProperty({ type: String, format: 'date-time' }) updatedAt!: Date;
}

@ObjectType('WebhookEndpointWithSecret', { description: 'Returned once, at registration or rotation' })
export class WebhookEndpointWithSecretView extends WebhookEndpointView {
  @Field(() => String, { description: 'whsec_… signing secret; shown only now' })
  @ApiProperty({
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    description: 'Shown only in this response',
  })
  secret!: string;
}

@ObjectType('WebhookAttempt')
export class WebhookAttemptView {
  @Field(() => ID) @ApiProperty({ format: 'uuid' }) id!: string;
  @Field(() => Int, { nullable: true }) @ApiPropertyOptional({ type: Number, nullable: true }) statusCode!:
    number | null;
  @Field(() => Int) @ApiProperty() latencyMs!: number;
  @Field(() => String, { nullable: true })
  @ApiPropertyOptional({ type: String, nullable: true })
  responseSnippet!: string | null;
  @Field(() => String, { nullable: true }) @ApiPropertyOptional({ type: String, nullable: true }) error!:
    string | null;
  @Field(() => Date) @ApiProperty({ type: String, format: 'date-time' }) createdAt!: Date;
}

@ObjectType('WebhookDelivery')
export class WebhookDeliveryView {
  @Field(() => ID, { description: 'The webhook-id header value, stable across retries' })
  @ApiProperty()
  id!: string;
  @Field(() => String) @ApiProperty() eventType!: string;
  @Field(() => String)
  @ApiProperty({ enum: ['pending', 'delivering', 'succeeded', 'failed', 'abandoned'] })
  status!: string;
  @Field(() => Int) @ApiProperty() attemptCount!: number;
  @Field(() => Date, { nullable: true })
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true })
  nextAttemptAt!: Date | null;
  @Field(() => Date) @ApiProperty({ type: String, format: 'date-time' }) createdAt!: Date;
  @Field(() => JsonScalar) @ApiProperty({ type: 'object', additionalProperties: true }) payload!: unknown;
  @Field(() => [WebhookAttemptView])
  @ApiProperty({ type: [WebhookAttemptView] })
  attempts!: WebhookAttemptView[];
}

@ObjectType('WebhookRedelivery')
export class WebhookRedeliveryView {
  @Field(() => ID) @ApiProperty() id!: string;
  @Field(() => String) @ApiProperty() eventType!: string;
  @Field(() => String) @ApiProperty() status!: string;
  @Field(() => Int) @ApiProperty() attemptCount!: number;
  @Field(() => Date, { nullable: true })
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true })
  nextAttemptAt!: Date | null;
}
