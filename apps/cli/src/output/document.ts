import type * as Yaml from 'yaml';

export type OutputFormat = 'table' | 'json' | 'yaml';
export const OUTPUT_FORMATS: readonly OutputFormat[] = ['table', 'json', 'yaml'];

/** JSON or YAML rendering of one result document. */
export function renderDocument(doc: unknown, format: 'json' | 'yaml'): string {
  return format === 'json'
    ? `${JSON.stringify(doc, null, 2)}\n`
    : (require('yaml') as typeof Yaml).stringify(doc, { lineWidth: 0 }); // YAML loads only for -o yaml
}
