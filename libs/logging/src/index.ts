export { LoggingModule, REQUEST_ID_HEADER, requestIdFor, configSecrets } from './logging.module';
export { redactSecrets, redactingDestination, urlPassword, REDACTED, REDACTED_PATHS } from './redact';
