import { Body, Controller, Get, Param, ParseUUIDPipe, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { ZodBodyPipe } from '../common/zod-body.pipe';
import {
  CreatePingJobBody,
  type CreatePingJobInput,
  createPingJobSchema,
  PingJobView,
} from './ping-job.model';
import { PingJobsService } from './ping-jobs.service';
import { OperatorOnly } from '../auth/auth-context';

@ApiTags('ping-jobs')
@Controller('api/ping-jobs')
// The foundation's example endpoints act on any tenant id, so only operators may call them.
@OperatorOnly()
export class PingJobsController {
  constructor(private readonly pingJobs: PingJobsService) {}

  @Post()
  @ApiCreatedResponse({ type: PingJobView, description: 'Recorded and queued; poll GET until finished' })
  create(@Body(new ZodBodyPipe(createPingJobSchema)) body: CreatePingJobBody & CreatePingJobInput) {
    return this.pingJobs.create(body);
  }

  @Get(':id')
  @ApiOkResponse({ type: PingJobView })
  get(@Param('id', ParseUUIDPipe) id: string) {
    return this.pingJobs.get(id);
  }
}
