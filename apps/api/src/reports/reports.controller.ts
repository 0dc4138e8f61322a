import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiProduces, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { ServerResponse } from 'node:http';
import { CurrentTenant, RequireScope, type TenantAuth } from '../auth/auth-context';
import { ReportsService } from './reports.service';

/** Same policy as the page's own meta tag: inline style and script only, nothing fetched. */
const REPORT_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'cache-control': 'private, no-store',
  // A signed link must not leak through the Referer of anything the page links to.
  'referrer-policy': 'no-referrer',
};

function sendHtml(res: ServerResponse, html: string): void {
  res.writeHead(200, REPORT_HEADERS);
  res.end(html);
}

@ApiTags('reports')
@Controller('v1')
export class ReportsController {
  constructor(private readonly reports: ReportsService) {}

  @Get('runs/:id/report')
  @RequireScope('read')
  @ApiBearerAuth()
  @ApiProduces('text/html')
  @ApiOkResponse({ description: 'A self-contained HTML report of the run (see docs/report.md)' })
  async report(
    @CurrentTenant() auth: TenantAuth,
    @Param('id') id: string,
    @Res() res: ServerResponse,
  ): Promise<void> {
    sendHtml(res, await this.reports.html(auth.tenantId, id));
  }

  @Get('reports/:runId')
  @ApiProduces('text/html')
  @ApiQuery({ name: 'expires', description: 'unix seconds, from reportUrl' })
  @ApiQuery({ name: 'sig', description: 'HMAC signature, from reportUrl' })
  @ApiOkResponse({
    description: 'The report behind a signed link from the GraphQL reportUrl query; no API key needed',
  })
  async signed(
    @Param('runId') runId: string,
    @Query('expires') expires: string | undefined,
    @Query('sig') sig: string | undefined,
    @Res() res: ServerResponse,
  ): Promise<void> {
    sendHtml(res, await this.reports.htmlForLink(runId, expires, sig));
  }
}
