import { Controller, Get, HttpCode, Res } from '@nestjs/common';
import { ApiOkResponse, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { ReadinessService } from './readiness.service';

@ApiTags('health')
@Controller()
export class HealthController {
  constructor(private readonly readiness: ReadinessService) {}

  /** Liveness: the process serves HTTP. Deliberately checks nothing else. */
  @Get('healthz')
  @HttpCode(200)
  @ApiOkResponse({ description: 'The process is alive' })
  healthz() {
    return { status: 'ok' };
  }

  /** Readiness: PostgreSQL and Redis both answer. 503 names whichever is down. */
  @Get('readyz')
  @ApiOkResponse({ description: 'PostgreSQL and Redis are reachable' })
  @ApiServiceUnavailableResponse({ description: 'A dependency is down; `down` names it' })
  async readyz(@Res({ passthrough: true }) res: { status(code: number): unknown }) {
    const result = await this.readiness.check();
    res.status(result.ready ? 200 : 503);
    return {
      status: result.ready ? 'ready' : `unavailable: ${result.down.join(', ')} down`,
      checks: result.checks,
      down: result.down,
    };
  }
}
