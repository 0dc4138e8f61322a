import { ApolloDriver, type ApolloDriverConfig } from '@nestjs/apollo';
import { type DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { GraphQLModule } from '@nestjs/graphql';
import { type AppConfig, AppConfigModule } from '@schedlab/config';
import { DbModule } from '@schedlab/db';
import { LoggingModule } from '@schedlab/logging';
import { HealthModule } from './health/health.module';
import { ApiMetricsModule } from './metrics/metrics.module';
import { ReportsModule } from './reports/reports.module';
import { graphqlContext } from './graphql/context';
import { httpStatusPlugin, queryLimitsPlugin } from './graphql/query-limits';
import { requestIdPlugin } from './graphql/request-id';
import { AdminModule } from './admin/admin.module';
import { ApiKeysModule } from './api-keys/api-keys.module';
import { AuthModule } from './auth/auth.module';
import { ApiErrorFilter } from './common/api-error.filter';
import { ApiRedisModule } from './common/redis';
import { TenantDataModule } from './common/tenant-data';
import { ProfilesModule } from './profiles/profiles.module';
import { RunsModule } from './runs/runs.module';
import { ScenariosModule } from './scenarios/scenarios.module';
import { SnapshotsModule } from './snapshots/snapshots.module';
import { SweepsModule } from './sweeps/sweeps.module';
import { WebhooksModule } from './webhooks/webhooks.module';

export const GRAPHQL_PATH = '/graphql';

@Module({})
export class ApiModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: ApiModule,
      imports: [
        AppConfigModule.forRoot(config),
        LoggingModule,
        DbModule,
        GraphQLModule.forRoot<ApolloDriverConfig>({
          driver: ApolloDriver,
          path: GRAPHQL_PATH,
          autoSchemaFile: true, // code-first: the schema is built from the decorated classes
          sortSchema: true,
          subscriptions: { 'graphql-ws': true },
          playground: false,
          introspection: true,
          context: graphqlContext,
          // Stack traces (absolute server paths) only when NODE_ENV=development is set explicitly.
          includeStacktraceInErrorResponses:
            config.nodeEnv === 'development' && process.env.NODE_ENV === 'development',
          allowBatchedHttpRequests: false,
          // Our httpStatusPlugin decides the status (429 for the rate limit); Nest's would reset it to 200.
          preserveHttpStatusForExecutionErrors: false,
          // Exception filters for field resolvers too, so their errors answer like every other.
          fieldResolverEnhancers: ['filters'],
          plugins: [queryLimitsPlugin(config.graphqlLimits), httpStatusPlugin(), requestIdPlugin()],
        }),
        HealthModule,
        ApiMetricsModule,
        // Cross-cutting: the api's Redis, tenant transactions, authentication (a global guard).
        ApiRedisModule,
        TenantDataModule,
        AuthModule,
        // One feature module per resource: controller (REST), resolver (GraphQL), service.
        SnapshotsModule,
        ProfilesModule,
        ScenariosModule,
        RunsModule,
        SweepsModule,
        ReportsModule,
        WebhooksModule,
        ApiKeysModule,
        AdminModule,
      ],
      providers: [{ provide: APP_FILTER, useClass: ApiErrorFilter }],
    };
  }
}
