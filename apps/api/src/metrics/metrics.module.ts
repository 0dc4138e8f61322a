import { type MiddlewareConsumer, Module, type NestModule } from '@nestjs/common';
import { MetricsModule as PrometheusModule } from '@schedlab/metrics';
import { HttpMetricsMiddleware } from './http-metrics.middleware';
import { MetricsController } from './metrics.controller';

/** GET /metrics for Prometheus, and HTTP latency and request counts for every route. */
@Module({
  imports: [PrometheusModule.forService('api')],
  controllers: [MetricsController],
  providers: [HttpMetricsMiddleware],
})
export class ApiMetricsModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(HttpMetricsMiddleware).forRoutes('*');
  }
}
