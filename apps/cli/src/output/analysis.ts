import { Option } from 'commander';
import { zoneOf, type Node } from '@schedlab/k8s';
import { OUTPUT_FORMATS, isTableFormat, renderDocument, type OutputFormat } from './document';

/** `-o table|wide|json|yaml`, as every result-printing command takes it. */
export function outputOption(): Option {
  return new Option('-o, --output <format>', 'table, wide (the table with full FitErrors), json or yaml')
    .choices(OUTPUT_FORMATS)
    .default('table');
}

/** Table lines for `table` and `wide` (long columns added), the document itself for json/yaml. */
export function renderAnalysis(
  document: unknown,
  format: OutputFormat,
  table: (options: { wide: boolean }) => string[],
): string {
  return isTableFormat(format)
    ? `${table({ wide: format === 'wide' }).join('\n')}\n`
    : renderDocument(document, format);
}

export function zoneLookup(nodes: readonly Node[]): (node: string) => string | null {
  const byName = new Map(nodes.map((n) => [n.metadata?.name ?? '', n]));
  return (node) => zoneOf(byName.get(node)) ?? null;
}

export const percent = (ratio: number): string => `${(ratio * 100).toFixed(1)}%`;
