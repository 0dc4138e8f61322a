export { envSchema, type Env, type LogLevel } from './env';
export { loadConfig, loadConfigOrExit, ConfigError, type AppConfig } from './app-config';
export { AppConfigModule, APP_CONFIG, InjectAppConfig } from './config.module';
