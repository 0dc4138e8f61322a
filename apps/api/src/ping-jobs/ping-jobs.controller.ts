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

@ApiTags('ping-jobs')
@Controller('api/ping-jobs')
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
