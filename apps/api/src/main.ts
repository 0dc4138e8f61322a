import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { Logger } from '@nestjs/common';
import { loadConfigOrExit } from '@schedlab/config';
import { createApiApp, endpointsOf } from './app';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const app = await createApiApp(config);
  await app.listen(config.api.port, config.api.host);
  const shownHost = ['0.0.0.0', '::'].includes(config.api.host) ? 'localhost' : config.api.host;
  const { port } = app.getHttpServer().address() as AddressInfo; // SCHEDLAB_API_PORT=0 picks a free port
  const endpoints = endpointsOf(`http://${shownHost}:${port}`);
  new Logger('api').log({ msg: 'api listening', ...endpoints });
  // When started by scripts/start-all.ts, tell the supervisor so it can print the endpoints.
  process.send?.({ type: 'api-listening', endpoints });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
