import { InjectQueue } from '@nestjs/bullmq';
import {
  Injectable,
  Logger,
  NotFoundException,
  type OnModuleInit,
  ServiceUnavailableException,
} from '@nestjs/common';
import type { Queue } from 'bullmq';
import { JobStatus, Prisma, PrismaService } from '@schedlab/db';
import { ignoreErrorsAfterClose, type PingJobData, QueueName } from '@schedlab/jobs';
import { type CreatePingJobInput, type PingJobView, toPingJobView } from './ping-job.model';

@Injectable()
export class PingJobsService implements OnModuleInit {
  private readonly logger = new Logger(PingJobsService.name);

  constructor(
    private readonly prisma: PrismaService,
    @InjectQueue(QueueName.Ping) private readonly queue: Queue<PingJobData>,
  ) {}

  onModuleInit(): void {
    // Without a listener, a lost Redis connection would surface as an unhandled 'error' event.
    this.queue.on('error', (error) => this.logger.warn(`Ping queue: ${error.message}`));
    ignoreErrorsAfterClose(this.queue);
  }

  /** Records the job, then enqueues it; the row exists before any worker can look for it. */
  async create(input: CreatePingJobInput): Promise<PingJobView> {
    const row = await this.insert(input);
    try {
      await this.queue.add('ping', { pingJobId: row.id }, { jobId: row.id, removeOnComplete: 1000 });
    } catch (error) {
      const reason = `Could not enqueue: ${(error as Error).message}`;
      await this.prisma.pingJob.update({
        where: { id: row.id },
        data: { status: JobStatus.FAILED, error: reason, finishedAt: new Date() },
      });
      throw new ServiceUnavailableException(reason);
    }
    return toPingJobView(row);
  }

  async get(id: string): Promise<PingJobView> {
    const row = await this.prisma.pingJob.findUnique({ where: { id } });
    if (!row) throw new NotFoundException(`Ping job ${id} not found`);
    return toPingJobView(row);
  }

  private async insert(input: CreatePingJobInput) {
    try {
      return await this.prisma.pingJob.create({
        data: { tenantId: input.tenantId, payload: { message: input.message } },
      });
    } catch (error) {
      if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2003') {
        throw new NotFoundException(`Tenant ${input.tenantId} not found`);
      }
      throw error;
    }
  }
}
