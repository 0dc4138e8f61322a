import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { loadConfigOrExit } from '@schedlab/config';
import { QueueName } from '@schedlab/jobs';
import { SWEEPS_QUEUE } from '@schedlab/runs';
import { createWorkerApp } from './app';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  await createWorkerApp(config);
  new Logger('worker').log({ msg: 'worker consuming', queues: [...Object.values(QueueName), SWEEPS_QUEUE] });
  process.send?.({ type: 'worker-ready' });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
