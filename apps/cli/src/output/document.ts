import type * as Yaml from 'yaml';

/** `wide` is kubectl's: the table with its long columns (the full FitError) added. */
export type OutputFormat = 'table' | 'wide' | 'json' | 'yaml';
export const OUTPUT_FORMATS: readonly OutputFormat[] = ['table', 'wide', 'json', 'yaml'];

export const isTableFormat = (format: OutputFormat): format is 'table' | 'wide' =>
  format === 'table' || format === 'wide';

/** JSON or YAML rendering of one result document. */
export function renderDocument(doc: unknown, format: 'json' | 'yaml'): string {
  return format === 'json'
    ? `${JSON.stringify(doc, null, 2)}\n`
    : (require('yaml') as typeof Yaml).stringify(doc, { lineWidth: 0 }); // YAML loads only for -o yaml
}
