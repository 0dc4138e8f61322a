export { DEPRECATED_ENV_NAMES, ENV_PREFIX, envSchema, type Env, type LogLevel } from './env';
export {
  loadConfig,
  loadConfigOrExit,
  deprecatedEnvWarning,
  ConfigError,
  type AppConfig,
} from './app-config';
export { AppConfigModule, APP_CONFIG, InjectAppConfig } from './config.module';
