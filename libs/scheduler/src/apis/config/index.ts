export * from './types';
export { ConfigValidationError, type ConfigFieldError } from './errors';
export { decodeConfiguration } from './decode';
export {
  defaultMultiPointPlugins,
  extensionPointsOf,
  KNOWN_IN_TREE_PLUGINS,
  IN_TREE_ARGS_PLUGINS,
} from './default-plugins';
export { mergePluginSet } from './merge';
export { loadSchedulerConfiguration, defaultConfiguration, type LoadOptions } from './load';
