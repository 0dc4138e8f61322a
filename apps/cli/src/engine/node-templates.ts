/**
 * The node-templates file of `schedlab nodes-needed`:
 *
 *   templates:
 *     - name: m5-xlarge
 *       hourlyPrice: 0.192
 *       allocatable: {cpu: "4", memory: 16Gi, pods: "110"}
 *       labels: {topology.kubernetes.io/zone: eu-west-1a}
 *       taints: [{key: k, value: v, effect: NoSchedule}]
 *
 * Each entry is a scenario node template (docs/scenarios.md) whose hourlyPrice is required.
 */
import { parse as parseYaml } from 'yaml';
import { parseQuantity } from '@schedlab/k8s';
import { nodeTemplateSchema, type NodeTemplate } from '@schedlab/scenarios';
import { InputFileError } from '../input/errors';
import { readInputFile } from '../input/read-input-file';

function fieldPath(prefix: string, path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (out, seg) => (typeof seg === 'number' ? `${out}[${seg}]` : `${out}.${String(seg)}`),
    prefix,
  );
}

export function parseNodeTemplates(text: string, file: string): NodeTemplate[] {
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (error) {
    throw new InputFileError(file, `invalid YAML/JSON: ${(error as Error).message.split('\n')[0]}`);
  }
  const list = (raw as { templates?: unknown } | null)?.templates;
  if (!Array.isArray(list) || list.length === 0)
    throw new InputFileError(file, 'templates: Required value: a list of at least one node template');
  const seen = new Set<string>();
  return list.map((entry, i) => {
    const where = `templates[${i}]`;
    const parsed = nodeTemplateSchema.safeParse(entry);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new InputFileError(file, `${fieldPath(where, issue.path)}: ${issue.message}`);
    }
    const template = parsed.data;
    if (template.hourlyPrice === undefined)
      throw new InputFileError(file, `${where}.hourlyPrice: Required value: the price per node-hour`);
    if (seen.has(template.name))
      throw new InputFileError(file, `${where}.name: Duplicate value: "${template.name}"`);
    seen.add(template.name);
    for (const [resource, value] of Object.entries(template.allocatable)) {
      try {
        parseQuantity(String(value));
      } catch (error) {
        throw new InputFileError(file, `${where}.allocatable.${resource}: ${(error as Error).message}`);
      }
    }
    return template;
  });
}

export function loadNodeTemplates(file: string): NodeTemplate[] {
  return parseNodeTemplates(readInputFile(file), file);
}
