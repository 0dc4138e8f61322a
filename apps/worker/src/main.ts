import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { loadConfigOrExit } from '@schedlab/config';
import { QUEUE_NAMES } from '@schedlab/queues';
import { createWorkerApp } from './app';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  await createWorkerApp(config);
  new Logger('worker').log({ msg: 'worker consuming', queues: QUEUE_NAMES });
  process.send?.({ type: 'worker-ready' });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
