export { LoggingModule, REQUEST_ID_HEADER, requestIdFor } from './logging.module';
