import { type DynamicModule, Global, Inject, Module } from '@nestjs/common';
import type { Registry } from 'prom-client';
import { HttpMetrics } from './http-metrics';
import { createMetricsRegistry, type MetricsService } from './registry';
import { WorkerMetrics } from './worker-metrics';

export const METRICS_REGISTRY = 'schedlab:metrics-registry';
export const InjectMetricsRegistry = (): ParameterDecorator => Inject(METRICS_REGISTRY);

/**
 * The process's registry plus its service's recorder, global so any module can inject
 * `HttpMetrics` (api) or `WorkerMetrics` (worker) without importing this module again.
 */
@Global()
@Module({})
export class MetricsModule {
  static forService(service: MetricsService): DynamicModule {
    const recorder = service === 'api' ? HttpMetrics : WorkerMetrics;
    return {
      module: MetricsModule,
      providers: [
        { provide: METRICS_REGISTRY, useFactory: () => createMetricsRegistry(service) },
        {
          provide: recorder,
          inject: [METRICS_REGISTRY],
          useFactory: (registry: Registry) => new recorder(registry),
        },
      ],
      exports: [METRICS_REGISTRY, recorder],
    };
  }
}
