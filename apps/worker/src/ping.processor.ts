import { hostname } from 'node:os';
import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger } from '@nestjs/common';
import type { Job } from 'bullmq';
import { JobStatus, PrismaService } from '@schedlab/db';
import { type PingJobData, pingJobDataSchema, type PingResult, QueueName } from '@schedlab/jobs';
import { z } from 'zod';

const pingPayloadSchema = z.object({ message: z.string() });

/** Echoes a ping job's message back into its row: the smallest real piece of work. */
@Processor(QueueName.Ping)
export class PingProcessor extends WorkerHost {
  private readonly logger = new Logger(PingProcessor.name);

  constructor(private readonly prisma: PrismaService) {
    super();
  }

  async process(job: Job<PingJobData>): Promise<PingResult> {
    const { pingJobId } = pingJobDataSchema.parse(job.data);
    try {
      const row = await this.prisma.pingJob.update({
        where: { id: pingJobId },
        data: { status: JobStatus.RUNNING, startedAt: new Date() },
      });
      const result: PingResult = {
        echo: pingPayloadSchema.parse(row.payload).message,
        processedBy: `${hostname()}:${process.pid}`,
        processedAt: new Date().toISOString(),
      };
      await this.prisma.pingJob.update({
        where: { id: pingJobId },
        data: { status: JobStatus.SUCCEEDED, result, finishedAt: new Date() },
      });
      this.logger.log({ msg: 'ping job succeeded', pingJobId });
      return result;
    } catch (error) {
      const message = (error as Error).message;
      await this.prisma.pingJob
        .update({
          where: { id: pingJobId },
          data: { status: JobStatus.FAILED, error: message, finishedAt: new Date() },
        })
        .catch(() => undefined); // the row itself may be what is missing
      this.logger.error({ msg: 'ping job failed', pingJobId, error: message });
      throw error;
    }
  }
}
