import { type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import type { AppConfig } from '@schedlab/config';
import { ApiModule, GRAPHQL_PATH } from './api.module';
import { bodyParserErrorHandler, v1BodyMiddleware } from './common/body-parsing';

export const OPENAPI_PATH = 'docs';

/** Builds the api application; used by main.ts and by the integration tests alike. */
export async function createApiApp(config: AppConfig): Promise<INestApplication> {
  process.env.SCHEDLAB_SERVICE ??= 'api';
  // Body parsing is ours: /v1 reads JSON or YAML as bytes under a configurable limit (see
  // common/body-parsing); everything else (GraphQL, the ping example) gets plain JSON.
  const app = await NestFactory.create<NestExpressApplication>(ApiModule.forRoot(config), {
    bufferLogs: true,
    bodyParser: false,
  });
  app.use('/v1', v1BodyMiddleware(config.apiLimits.bodyBytes, config.inputLimits));
  app.useBodyParser('json', { limit: config.apiLimits.graphqlBodyBytes });
  app.use(bodyParserErrorHandler(config.apiLimits.graphqlBodyBytes));
  app.useLogger(app.get(Logger));
  app.enableShutdownHooks();
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Schedlab API')
      .setDescription(
        `REST endpoints. GraphQL (queries, mutations, graphql-ws subscriptions) is at ${GRAPHQL_PATH}.`,
      )
      .setVersion(process.env.npm_package_version ?? '0.1.0')
      .addBearerAuth({
        type: 'http',
        scheme: 'bearer',
        description: 'A tenant API key (sl_…) or, for /v1/admin, the operator token',
      })
      .build(),
  );
  SwaggerModule.setup(OPENAPI_PATH, app, document, { jsonDocumentUrl: `${OPENAPI_PATH}/openapi.json` });
  return app;
}

/** Where a person finds things, for the start-up log line and banner. */
export function endpointsOf(baseUrl: string) {
  return {
    graphql: `${baseUrl}${GRAPHQL_PATH}`,
    restDocs: `${baseUrl}/${OPENAPI_PATH}`,
    openApiJson: `${baseUrl}/${OPENAPI_PATH}/openapi.json`,
    healthz: `${baseUrl}/healthz`,
    readyz: `${baseUrl}/readyz`,
  };
}
