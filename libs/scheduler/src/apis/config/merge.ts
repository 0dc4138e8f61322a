/**
 * v1 defaulting of a profile's plugins: the user's plugin sets merged into the defaults
 * (upstream mergePlugins / mergePluginSet).
 */
import { EXTENSION_POINTS, type PluginRef, type PluginSetField } from './types';

/** Where a merged entry came from, so framework errors can point at the user's config. */
export interface MergedPlugin extends PluginRef {
  /** Index in the user's `enabled` list of the same plugin set; undefined for defaults. */
  sourceIndex?: number;
}

export interface MergedPluginSet {
  enabled: MergedPlugin[];
  disabled: string[];
}

export const PLUGIN_SET_FIELDS: readonly PluginSetField[] = ['multiPoint', ...EXTENSION_POINTS];

/**
 * Defaults keep their order; a default the user re-lists is replaced in place by the user's
 * entry (weight included, so an entry without weight drops the default weight); a default named
 * in `disabled` (or all of them, with "*") is dropped; remaining user entries follow, duplicates
 * included (the framework rejects those later).
 */
export function mergePluginSet(
  defaults: { enabled: PluginRef[]; disabled?: string[] },
  custom: { enabled?: PluginRef[]; disabled?: { name: string }[] } | undefined,
): MergedPluginSet {
  const customEnabled = custom?.enabled ?? [];
  const disabled = [...(custom?.disabled ?? []).map((d) => d.name), ...(defaults.disabled ?? [])];
  const disabledSet = new Set(disabled);
  // Later duplicates win the lookup, as upstream builds a map over the list.
  const customByName = new Map<string, number>();
  customEnabled.forEach((p, i) => customByName.set(p.name, i));

  const enabled: MergedPlugin[] = [];
  const replaced = new Set<number>();
  if (!disabledSet.has('*')) {
    for (const d of defaults.enabled) {
      if (disabledSet.has(d.name)) continue;
      const idx = customByName.get(d.name);
      if (idx !== undefined) {
        enabled.push({ ...customEnabled[idx], sourceIndex: idx });
        replaced.add(idx);
      } else {
        enabled.push({ ...d });
      }
    }
  }
  customEnabled.forEach((p, i) => {
    if (!replaced.has(i)) enabled.push({ ...p, sourceIndex: i });
  });
  return { enabled, disabled };
}
