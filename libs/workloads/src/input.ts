/**
 * Workloads from text: multi-document YAML or JSON (Lists included) through parseKubernetesObjects.
 * Unknown kinds are reported and skipped; an invalid object stops the whole file unless bestEffort,
 * in which case each document (or List item) stands on its own.
 */
import { ObjectValidationError, ParseError, parseKubernetesObjects } from '@schedlab/k8s';
import type { KubeObject, SkippedObject } from '@schedlab/k8s';
import type * as Yaml from 'yaml';
import {
  ExpandOptions,
  ExpansionResult,
  InvalidWorkloadsError,
  RejectedObject,
  expandWorkloads,
} from './expand';

interface ParsedPieces {
  objects: KubeObject[];
  skipped: SkippedObject[];
  invalid: RejectedObject[];
}

function describeInvalid(e: ObjectValidationError): RejectedObject {
  const id = e.name ? (e.namespace ? `${e.namespace}/${e.name}` : e.name) : '<unnamed>';
  return { object: `${e.kind || '<no kind>'} ${id}`, message: e.message };
}

/** Parses piece by piece so one invalid object does not hide the others. */
function parsePieces(text: string, source?: string): ParsedPieces {
  const out: ParsedPieces = { objects: [], skipped: [], invalid: [] };
  const trimmed = text.trimStart();
  let docs: unknown[];
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      docs = [JSON.parse(text)];
    } catch {
      // The strict parser reports the syntax error with its position.
      parseKubernetesObjects(text, { source });
      throw new ParseError('invalid JSON', undefined, undefined, source);
    }
  } else {
    const parsed = (require('yaml') as typeof Yaml).parseAllDocuments(text); // YAML input only
    const all = Array.isArray(parsed) ? parsed : [parsed];
    if (all.some((d) => d.errors.length > 0)) {
      parseKubernetesObjects(text, { source });
      throw new ParseError('invalid YAML', undefined, undefined, source);
    }
    docs = all.map((d) => d.toJS({ maxAliasCount: 1000 }));
  }
  const pieces: unknown[] = [];
  for (const d of docs) {
    if (Array.isArray(d)) pieces.push(...d);
    else if (
      d &&
      typeof d === 'object' &&
      Array.isArray((d as { items?: unknown }).items) &&
      /List$/.test(String((d as { kind?: unknown }).kind))
    ) {
      const list = d as { kind: string; apiVersion?: string; items: unknown[] };
      for (const item of list.items)
        pieces.push({ kind: list.kind, apiVersion: list.apiVersion, items: [item] });
    } else pieces.push(d);
  }
  for (const piece of pieces) {
    try {
      const r = parseKubernetesObjects(JSON.stringify(piece ?? null), { source });
      out.objects.push(...r.objects);
      out.skipped.push(...r.skipped);
    } catch (e) {
      if (e instanceof ObjectValidationError) out.invalid.push(describeInvalid(e));
      else throw e;
    }
  }
  return out;
}

export function expandWorkloadsFromText(
  text: string,
  options: ExpandOptions & { source?: string } = {},
): ExpansionResult {
  if (!options.bestEffort) {
    let parsed;
    try {
      parsed = parseKubernetesObjects(text, { source: options.source });
    } catch (e) {
      if (e instanceof ObjectValidationError) throw new InvalidWorkloadsError([describeInvalid(e)]);
      throw e;
    }
    const result = expandWorkloads(parsed.objects, options);
    result.skipped.push(...parsed.skipped);
    return result;
  }
  const pieces = parsePieces(text, options.source);
  const result = expandWorkloads(pieces.objects, options);
  result.skipped.push(...pieces.skipped);
  result.rejected.push(...pieces.invalid);
  return result;
}
