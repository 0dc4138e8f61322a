import { type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { cleanupOpenApiDoc } from 'nestjs-zod';
import type { AppConfig } from '@schedlab/config';
import { httpLoggerFor } from '@schedlab/logging';
import { ApiModule, GRAPHQL_PATH } from './api.module';
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  bodyParserErrorHandler,
  graphqlAcceptGuard,
  rejectMalformedText,
  v1BodyMiddleware,
} from './common/body-parsing';
import { deprecatedSimulationsAlias } from './common/deprecated-routes';
import { errorBody } from './common/error-body';

export const OPENAPI_PATH = 'docs';

/** Builds the api application; used by main.ts and by the integration tests alike. */
export async function createApiApp(config: AppConfig): Promise<INestApplication> {
  process.env.SCHEDLAB_SERVICE ??= 'api';
  // Body parsing is ours: /v1 reads JSON or YAML as bytes under a configurable limit (see
  // common/body-parsing); everything else (GraphQL) gets plain JSON.
  const app = await NestFactory.create<NestExpressApplication>(ApiModule.forRoot(config), {
    bufferLogs: true,
    bodyParser: false,
  });
  answerClientErrorsInOurShape(app.getHttpServer() as Server);
  // First, so every request has its id and log line, even one the body middleware refuses.
  app.use(httpLoggerFor(config));
  app.use(deprecatedSimulationsAlias());
  app.use(GRAPHQL_PATH, graphqlAcceptGuard());
  app.use('/v1', v1BodyMiddleware(config.apiLimits.bodyBytes, config.inputLimits));
  app.useBodyParser('json', { limit: config.apiLimits.graphqlBodyBytes, reviver: rejectMalformedText });
  app.use(bodyParserErrorHandler(config.apiLimits.graphqlBodyBytes));
  app.useLogger(app.get(Logger));
  app.enableShutdownHooks();
  const document = openApiDocument(app);
  SwaggerModule.setup(OPENAPI_PATH, app, document, { jsonDocumentUrl: `${OPENAPI_PATH}/openapi.json` });
  return app;
}

/** The REST contract as OpenAPI 3, built from the controllers (also committed: apps/api/openapi.json). */
export function openApiDocument(app: INestApplication): OpenAPIObject {
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Schedlab API')
      .setDescription(
        `REST endpoints. GraphQL (queries, mutations, graphql-ws subscriptions) is at ${GRAPHQL_PATH}. ` +
          '/v1/simulations… is a deprecated alias of /v1/runs… (answers carry Deprecation and Link headers).',
      )
      .setVersion(process.env.npm_package_version ?? '0.1.0')
      .addBearerAuth({
        type: 'http',
        scheme: 'bearer',
        description: 'A tenant API key (sl_…) or, for /v1/admin, the operator token',
      })
      .build(),
  );
  // The request bodies' schemas come from zod (nestjs-zod DTOs); this turns them into plain
  // OpenAPI components.
  return cleanupOpenApiDoc(document);
}

/**
 * Requests Node's HTTP parser refuses before any handler (headers past its 16 KiB limit,
 * malformed request lines) get the usual error body instead of an empty 400/431.
 */
function answerClientErrorsInOurShape(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable || (socket as Duplex & { _httpMessage?: unknown })._httpMessage) {
      socket.destroy();
      return;
    }
    const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
    const status = tooLarge ? 431 : 400;
    const requestId = randomUUID();
    const body = JSON.stringify(
      errorBody(
        tooLarge ? 'headers_too_large' : 'malformed_request',
        tooLarge ? 'Request headers are too large' : 'Malformed HTTP request',
        undefined,
        requestId,
      ),
    );
    socket.end(
      `HTTP/1.1 ${status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
        `content-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
        `x-request-id: ${requestId}\r\nconnection: close\r\n\r\n${body}`,
    );
  });
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
