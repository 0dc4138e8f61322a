import { type DynamicModule, Global, Inject, Module } from '@nestjs/common';
import type { AppConfig } from './app-config';

export const APP_CONFIG = 'schedlab:app-config';

/** Injects the validated AppConfig: `constructor(@InjectAppConfig() config: AppConfig)`. */
export const InjectAppConfig = (): ParameterDecorator => Inject(APP_CONFIG);

/** Makes one validated AppConfig available to every module of an app. */
@Global()
@Module({})
export class AppConfigModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppConfigModule,
      providers: [{ provide: APP_CONFIG, useValue: config }],
      exports: [APP_CONFIG],
    };
  }
}
