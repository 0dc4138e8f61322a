export {
  LoggingModule,
  REQUEST_ID_HEADER,
  requestIdFor,
  configSecrets,
  httpLoggerFor,
} from './logging.module';
export { prettyLine } from './pretty';
export { redactSecrets, redactingDestination, urlPassword, REDACTED, REDACTED_PATHS } from './redact';
