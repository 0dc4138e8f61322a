import { Injectable, type NestMiddleware } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpMetrics, UNMATCHED_ROUTE } from '@schedlab/metrics';

/** The parts of Express's request this reads (the workspace has no @types/express). */
type RoutedRequest = IncomingMessage & { method: string; originalUrl?: string; route?: { path?: unknown } };

/**
 * Times every request until its response is finished and records it under the route template
 * Express matched (`/v1/snapshots/:id`), the mount path of mounted handlers (`/graphql`), or
 * `<unmatched>` — never the raw URL, so ids and scanners do not create series.
 */
@Injectable()
export class HttpMetricsMiddleware implements NestMiddleware {
  constructor(private readonly metrics: HttpMetrics) {}

  use(req: RoutedRequest, res: ServerResponse, next: () => void): void {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      this.metrics.observe(req.method, routeOf(req), res.statusCode, seconds);
    });
    next();
  }
}

/** Handlers mounted with app.use (Apollo's GraphQL, Swagger's docs) have no Express route. */
const MOUNTED_PATHS = ['/graphql', '/docs'];

function routeOf(req: RoutedRequest): string {
  const path = req.route?.path;
  // Nest registers controller routes with their full template; "{*path}" is a catch-all
  // (middleware, the 404 handler), not a route of ours.
  if (typeof path === 'string' && !path.includes('{*')) return path;
  // Mounted handlers see req.url relative to their mount point; originalUrl keeps the full path.
  const pathname = (req.originalUrl ?? req.url ?? '').split('?')[0];
  return MOUNTED_PATHS.find((p) => pathname === p || pathname.startsWith(`${p}/`)) ?? UNMATCHED_ROUTE;
}
