/** One Prometheus registry per process, labelled with the service, with Node's default metrics. */
import { Registry, collectDefaultMetrics } from 'prom-client';

export type MetricsService = 'api' | 'worker';

export function createMetricsRegistry(service: MetricsService): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  // Process CPU, memory, event-loop lag, GC: the first things to look at when latency grows.
  collectDefaultMetrics({ register: registry, prefix: 'schedlab_' });
  return registry;
}
