import type { PluginDescriptor } from '../../runtime/registry';
import { PluginNames } from '../names';
import { ImageLocality } from './image-locality';

export * from './image-locality';
export { assignImageStatesInAddOrder } from './image-states';

export const descriptor: PluginDescriptor<undefined> = {
  name: PluginNames.ImageLocality,
  create: (_args, handle) => new ImageLocality(handle),
};
