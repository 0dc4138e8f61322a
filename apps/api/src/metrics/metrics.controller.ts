import { Controller, Get, Header, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { ServerResponse } from 'node:http';
import type { Registry } from 'prom-client';
import { InjectMetricsRegistry } from '@schedlab/metrics';

/** Prometheus scrape endpoint (text exposition format); see docs/metrics.md. */
@ApiExcludeController()
@Controller()
export class MetricsController {
  constructor(@InjectMetricsRegistry() private readonly registry: Registry) {}

  @Get('metrics')
  @Header('cache-control', 'no-store')
  async metrics(@Res() res: ServerResponse): Promise<void> {
    const text = await this.registry.metrics();
    res.setHeader('content-type', this.registry.contentType);
    res.end(text);
  }
}
