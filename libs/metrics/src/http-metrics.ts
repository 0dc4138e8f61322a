/** HTTP request metrics of the api, by route template (never the raw URL: ids would explode the series). */
import { Counter, Histogram, type Registry } from 'prom-client';

const LABELS = ['method', 'route', 'status'] as const;

/** Seconds; from a cached health check to a large synchronous upload. */
export const HTTP_DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The route label of requests no route matched, so scanners cannot create series. */
export const UNMATCHED_ROUTE = '<unmatched>';

export class HttpMetrics {
  readonly duration: Histogram<(typeof LABELS)[number]>;
  readonly requests: Counter<(typeof LABELS)[number]>;

  constructor(registry: Registry) {
    this.duration = new Histogram({
      name: 'schedlab_http_request_duration_seconds',
      help: 'Time from request received to response finished, by method, route template and status code',
      labelNames: LABELS,
      buckets: HTTP_DURATION_BUCKETS,
      registers: [registry],
    });
    this.requests = new Counter({
      name: 'schedlab_http_requests_total',
      help: 'HTTP requests answered, by method, route template and status code',
      labelNames: LABELS,
      registers: [registry],
    });
  }

  observe(method: string, route: string, status: number, seconds: number): void {
    const labels = { method, route, status: String(status) };
    this.duration.observe(labels, seconds);
    this.requests.inc(labels);
  }
}
