// Turns user-supplied JSON / multi-document YAML into validated Kubernetes objects.
import type * as Yaml from 'yaml';
import type { z } from 'zod';
import type { ObjectMeta } from './types';
import type * as Schemas from './schemas';
import { KIND_CHECKS, METADATA_CHECK } from './kind-checks.generated';
import { CLUSTER_SCOPED_KINDS } from './defaulting';
import {
  checkValueLimits,
  jsonStringsWellFormed,
  DEFAULT_INPUT_LIMITS,
  InputLimitError,
  type InputLimits,
  isStackExhaustion,
  isYamlAliasExhaustion,
} from './input-limits';
import { dns1035LabelErrors, dns1123LabelErrors, dns1123SubdomainErrors } from './validation';

/** The YAML parser, loaded on first use: JSON dumps (the large ones) never need it. */
const yamlLibrary = () => require('yaml') as typeof Yaml;

/**
 * The kind schemas, loaded (with zod) only to word the first issue of an object the generated
 * checks did not pass: a well-formed dump never needs them.
 */
const kindSchemas = () => require('./schemas') as typeof Schemas;

export type KubeObject = { apiVersion?: string; kind: string; metadata: ObjectMeta; [k: string]: unknown };

export interface SkippedObject {
  apiVersion?: string;
  kind: string;
  namespace?: string;
  name?: string;
  reason: string;
}

export interface ParseResult {
  objects: KubeObject[];
  skipped: SkippedObject[];
}

/** Kinds Schedlab understands; anything else is reported in `skipped`. */
export const KNOWN_KINDS: ReadonlySet<string> = new Set(Object.keys(KIND_CHECKS));

/** Syntax error in the input text; line/column are 1-based when known. */
export class ParseError extends Error {
  constructor(
    readonly detail: string,
    readonly line?: number,
    readonly column?: number,
    readonly source?: string,
  ) {
    const where = [
      source,
      line !== undefined ? `line ${line}` : undefined,
      column !== undefined ? `column ${column}` : undefined,
    ]
      .filter(Boolean)
      .join(', ');
    super(where ? `${where}: ${detail}` : detail);
    this.name = 'ParseError';
  }
}

/**
 * A syntactically valid object the API server would reject; `field` is a path like
 * spec.containers[0].name. Note: `.name` is the offending object's name ('' when it has none),
 * not the error class name; test with `instanceof`.
 */
export class ObjectValidationError extends Error {
  override readonly name: string;
  constructor(
    readonly kind: string,
    readonly namespace: string | undefined,
    objectName: string | undefined,
    readonly field: string,
    readonly detail: string,
  ) {
    const id = objectName ? (namespace ? `${namespace}/${objectName}` : objectName) : '<unnamed>';
    super(`${kind || '<no kind>'} ${id}: ${field ? `${field}: ` : ''}${detail}`);
    this.name = objectName ?? '';
  }
}

/** `namespace/name` for namespaced objects, `name` otherwise. */
export function objectKey(obj: { metadata?: { name?: string; namespace?: string } }): string {
  const ns = obj.metadata?.namespace;
  const name = obj.metadata?.name ?? '';
  return ns ? `${ns}/${name}` : name;
}

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Renders a path like field.Path does: dotted identifiers, [i] for indexes, [key] for other map keys. */
export function formatFieldPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else {
      const s = String(seg);
      out += IDENT.test(s) ? (out ? `.${s}` : s) : `[${s}]`;
    }
  }
  return out;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function issueDetail(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type') {
    const input = (issue as { input?: unknown }).input;
    if (input === undefined) return 'Required value';
    return `Invalid value: ${JSON.stringify(input)}: expected ${issue.expected}`;
  }
  if (issue.code === 'too_small' && issue.origin === 'string' && issue.minimum === 1) return 'Required value';
  if (issue.code === 'too_small' && issue.origin === 'array')
    return `Required value: must have at least ${issue.minimum} item(s)`;
  return issue.message;
}

/** Validates one object of a known kind; throws ObjectValidationError on the first problem. */
export function validateObject(obj: KubeObject): void {
  // Well-formed objects (nearly all of a dump) pass checks generated from the kind schemas, which
  // copy nothing; the rest go through zod's parse, which names the first issue.
  const check = KIND_CHECKS[obj.kind];
  if (METADATA_CHECK(obj.metadata) && (check === undefined || check(obj))) return;
  validateObjectWithZod(obj);
}

function validateObjectWithZod(obj: KubeObject): void {
  const { KIND_SCHEMAS, metadataSchema } = kindSchemas();
  const schema: z.ZodType | undefined = KIND_SCHEMAS[obj.kind];
  const meta = isRecord(obj.metadata) ? obj.metadata : undefined;
  const namespace = typeof meta?.namespace === 'string' ? meta.namespace : undefined;
  const name = typeof meta?.name === 'string' && meta.name ? meta.name : undefined;
  const fail = (path: readonly PropertyKey[], detail: string): never => {
    throw new ObjectValidationError(obj.kind, namespace, name, formatFieldPath(path), detail);
  };
  const metaResult = metadataSchema.safeParse(obj.metadata, { reportInput: true });
  if (!metaResult.success) {
    const issue = metaResult.error.issues[0];
    fail(['metadata', ...issue.path], issueDetail(issue));
  }
  if (!schema) return;
  const result = schema.safeParse(obj, { reportInput: true });
  if (!result.success) {
    const issue = result.error.issues[0];
    fail(issue.path, issueDetail(issue));
  }
}

function lineCol(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lastNl = -1;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lastNl = i;
    }
  }
  return { line, column: offset - lastNl };
}

function parseJson(text: string, source?: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    const msg = (e as Error).message;
    const lc = /line (\d+) column (\d+)/.exec(msg);
    if (lc) throw new ParseError(`invalid JSON: ${msg}`, Number(lc[1]), Number(lc[2]), source);
    const pos = /position (\d+)/.exec(msg);
    if (pos) {
      const { line, column } = lineCol(text, Number(pos[1]));
      throw new ParseError(`invalid JSON: ${msg}`, line, column, source);
    }
    // Older/newer V8 messages may lack a position: ask the YAML parser (JSON is YAML) where it breaks.
    const docs = yamlLibrary().parseAllDocuments(text);
    const err = (Array.isArray(docs) ? docs : [docs]).flatMap((d) => d.errors)[0];
    const lp = err?.linePos?.[0];
    throw new ParseError(
      `invalid JSON: ${msg}`,
      lp?.line ?? lineCol(text, text.length).line,
      lp?.col,
      source,
    );
  }
}

function parseYaml(text: string, source: string | undefined, limits: InputLimits): unknown[] {
  let parsed: ReturnType<typeof Yaml.parseAllDocuments>;
  try {
    parsed = yamlLibrary().parseAllDocuments(text);
  } catch (e) {
    if (isStackExhaustion(e)) throw new InputLimitError('maxDepth', limits.maxDepth, '', 'nested too deeply');
    throw e;
  }
  const docs = Array.isArray(parsed) ? parsed : [parsed];
  const out: unknown[] = [];
  for (const doc of docs) {
    const err = doc.errors[0];
    if (err) {
      const lp = err.linePos?.[0];
      throw new ParseError(`invalid YAML: ${err.message.split('\n')[0]}`, lp?.line, lp?.col, source);
    }
    try {
      out.push(doc.toJS({ maxAliasCount: limits.maxYamlAliases }));
    } catch (e) {
      if (isYamlAliasExhaustion(e)) {
        const where = docs.length > 1 ? `document[${out.length}]` : '';
        throw new InputLimitError(
          'maxYamlAliases',
          limits.maxYamlAliases,
          where,
          'YAML aliases expand too far',
        );
      }
      if (isStackExhaustion(e))
        throw new InputLimitError('maxDepth', limits.maxDepth, '', 'nested too deeply');
      // e.g. an alias whose anchor is never set: a syntax error of the document, not a crash.
      if (e instanceof ReferenceError || e instanceof TypeError)
        throw new ParseError(`invalid YAML: ${e.message.split('\n')[0]}`, undefined, undefined, source);
      throw e;
    }
  }
  return out;
}

/** The API group of each known kind, so a near miss is judged within its own group. */
const GROUP_OF_KIND: Record<string, string> = {
  Pod: 'v1',
  Node: 'v1',
  PersistentVolume: 'v1',
  PersistentVolumeClaim: 'v1',
  Service: 'v1',
  ReplicationController: 'v1',
  LimitRange: 'v1',
  ResourceQuota: 'v1',
  Namespace: 'v1',
  ReplicaSet: 'apps',
  Deployment: 'apps',
  StatefulSet: 'apps',
  DaemonSet: 'apps',
  Job: 'batch',
  CronJob: 'batch',
  PriorityClass: 'scheduling.k8s.io',
  PodDisruptionBudget: 'policy',
  StorageClass: 'storage.k8s.io',
  CSINode: 'storage.k8s.io',
  CSIDriver: 'storage.k8s.io',
  CSIStorageCapacity: 'storage.k8s.io',
  RuntimeClass: 'node.k8s.io',
  ResourceClaim: 'resource.k8s.io',
  ResourceClaimTemplate: 'resource.k8s.io',
  DeviceClass: 'resource.k8s.io',
  DeviceTaintRule: 'resource.k8s.io',
  ResourceSlice: 'resource.k8s.io',
};

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diag = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return row[b.length];
}

/**
 * The known kind an unknown `kind` was surely meant to be: the same letters in another case, a
 * plural, or (within the kind's own API group) one or two typos. Other unknown kinds are skipped.
 */
export function misspeltKind(kind: string, apiVersion?: string): string | undefined {
  const lower = kind.toLowerCase();
  const group =
    apiVersion === undefined ? undefined : apiVersion.includes('/') ? apiVersion.split('/')[0] : 'v1';
  for (const known of KNOWN_KINDS) {
    const k = known.toLowerCase();
    if (lower === k || lower === `${k}s` || lower === `${k}es`) return known;
    if (
      group !== undefined &&
      GROUP_OF_KIND[known] === group &&
      known.length >= 4 &&
      editDistance(lower, k) <= 2
    )
      return known;
  }
  return undefined;
}

/** Object names, namespaces and a pod's spec.nodeName, as the apiserver validates them. */
function validateNames(obj: KubeObject): void {
  const meta = obj.metadata;
  const fail = (field: string, value: string, problems: string[]): never => {
    const shown = JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
    throw new ObjectValidationError(
      obj.kind,
      meta.namespace ?? undefined,
      meta.name,
      field,
      `Invalid value: ${shown}: ${problems.join('; ')}`,
    );
  };
  const nameRule =
    obj.kind === 'Namespace'
      ? dns1123LabelErrors
      : obj.kind === 'Service'
        ? dns1035LabelErrors
        : dns1123SubdomainErrors;
  const name = meta.name ?? '';
  const nameProblems = nameRule(name);
  if (nameProblems.length) fail('metadata.name', name, nameProblems);
  if (typeof meta.namespace === 'string' && meta.namespace !== '') {
    const nsProblems = dns1123LabelErrors(meta.namespace);
    if (nsProblems.length) fail('metadata.namespace', meta.namespace, nsProblems);
  }
  const spec = obj.spec as { nodeName?: unknown } | undefined;
  if (obj.kind === 'Pod' && typeof spec?.nodeName === 'string' && spec.nodeName !== '') {
    const nodeProblems = dns1123SubdomainErrors(spec.nodeName);
    if (nodeProblems.length) fail('spec.nodeName', spec.nodeName, nodeProblems);
  }
}

/** How a value's path follows from its parent's: the path itself, `[i]`, or `.items[i]`. */
const PathStep = { Self: 0, Element: 1, Item: 2 } as const;
type PathStep = (typeof PathStep)[keyof typeof PathStep];

function pathOf(base: string, step: PathStep, index: number): string {
  if (step === PathStep.Element) return `${base}[${index}]`;
  if (step === PathStep.Item) return `${base}.items[${index}]`;
  return base;
}

function namesOf(seen: Map<string, Map<string, Set<string>>>, kind: string, namespace: string): Set<string> {
  let byNamespace = seen.get(kind);
  if (byNamespace === undefined) seen.set(kind, (byNamespace = new Map()));
  let names = byNamespace.get(namespace);
  if (names === undefined) byNamespace.set(namespace, (names = new Set()));
  return names;
}

/**
 * Parses a JSON object (single object or List), a JSON array, or multi-document YAML (documents may
 * be Lists; empty documents are ignored). Known kinds are validated; unknown kinds are skipped.
 */
export function parseKubernetesObjects(
  text: string,
  opts: { source?: string; limits?: Partial<InputLimits> } = {},
): ParseResult {
  const limits: InputLimits = { ...DEFAULT_INPUT_LIMITS, ...opts.limits };
  const trimmed = text.trimStart();
  const json = trimmed.startsWith('{') || trimmed.startsWith('[');
  const roots = json ? [parseJson(text, opts.source)] : parseYaml(text, opts.source, limits);
  // Before anything walks the documents recursively: depth and string sizes (and well-formed
  // text, settled for all of a JSON document's strings at once where its text tells).
  const stringsWellFormed = json && jsonStringsWellFormed(text);
  roots.forEach((r, i) =>
    checkValueLimits(r, limits, roots.length > 1 ? `document[${i}]` : '', { stringsWellFormed }),
  );
  const result: ParseResult = { objects: [], skipped: [] };
  // kind → namespace ('' when cluster-scoped) → names seen: no key string per object.
  const seen = new Map<string, Map<string, Set<string>>>();
  // A value's path is its parent's `base` and, for an element or list item, its index: built
  // only when a message needs it, not for each of a dump's items.
  const visit = (
    value: unknown,
    base: string,
    step: PathStep,
    index: number,
    inherited?: { kind?: string; apiVersion?: string },
  ) => {
    if (value === null || value === undefined) return;
    if (Array.isArray(value)) {
      const where = pathOf(base, step, index);
      // A hole is undefined here, and visiting undefined does nothing (as forEach skipping it).
      for (let i = 0; i < value.length; i++) visit(value[i], where, PathStep.Element, i);
      return;
    }
    if (!isRecord(value)) {
      throw new ObjectValidationError(
        '',
        undefined,
        undefined,
        pathOf(base, step, index),
        `expected a Kubernetes object, got ${JSON.stringify(value)}`,
      );
    }
    const kind = value.kind ?? inherited?.kind;
    if (typeof kind === 'string' && kind.endsWith('List') && Array.isArray(value.items)) {
      // Items of a typed list (PodList) may omit kind/apiVersion; they inherit them from the list.
      const itemKind = kind === 'List' ? undefined : kind.slice(0, -'List'.length);
      const apiVersion = typeof value.apiVersion === 'string' ? value.apiVersion : undefined;
      const fromList = { kind: itemKind, apiVersion };
      const where = pathOf(base, step, index);
      const items = value.items;
      for (let i = 0; i < items.length; i++) {
        const item: unknown = items[i];
        visit(item, where, PathStep.Item, i, isRecord(item) ? fromList : undefined);
      }
      return;
    }
    const meta = isRecord(value.metadata) ? value.metadata : undefined;
    const ns = typeof meta?.namespace === 'string' ? meta.namespace : undefined;
    const name = typeof meta?.name === 'string' ? meta.name : undefined;
    if (typeof kind !== 'string' || kind === '') {
      throw new ObjectValidationError('', ns, name, 'kind', 'Required value: kind is required');
    }
    // The parsed object itself where it names its kind and needs no apiVersion from its list
    // (nearly always): a copy of every object of a large dump is measurable.
    const inheritsApiVersion = value.apiVersion === undefined && inherited?.apiVersion && inherited.kind;
    const obj = (value.kind === kind && !inheritsApiVersion ? value : { ...value, kind }) as KubeObject;
    if (inheritsApiVersion) obj.apiVersion = inherited.apiVersion;
    if (result.objects.length + result.skipped.length >= limits.maxObjects) {
      throw new InputLimitError(
        'maxObjects',
        limits.maxObjects,
        pathOf(base, step, index),
        'too many objects',
      );
    }
    if (!KNOWN_KINDS.has(kind)) {
      const meant = misspeltKind(kind, typeof obj.apiVersion === 'string' ? obj.apiVersion : undefined);
      if (meant) {
        throw new ObjectValidationError(
          kind,
          ns,
          name,
          'kind',
          `Unsupported value: ${JSON.stringify(kind)}: did you mean "${meant}"?`,
        );
      }
      const skipped: SkippedObject = { kind, reason: 'unknown kind' };
      if (typeof obj.apiVersion === 'string') skipped.apiVersion = obj.apiVersion;
      if (ns !== undefined) skipped.namespace = ns;
      if (name !== undefined) skipped.name = name;
      result.skipped.push(skipped);
      return;
    }
    validateObject(obj);
    validateNames(obj);
    // The apiserver holds one object per kind, namespace and name: a second one is a broken dump.
    const clusterScoped = CLUSTER_SCOPED_KINDS.has(kind);
    const namespace = clusterScoped ? undefined : (ns ?? 'default');
    // Validated: the name is a non-empty string.
    const names = namesOf(seen, kind, namespace ?? '');
    if (names.has(name!)) {
      const scope = clusterScoped ? 'name' : 'namespace and name';
      throw new ObjectValidationError(
        kind,
        namespace,
        name,
        'metadata.name',
        `Duplicate value: ${JSON.stringify(name)}: another ${kind} in this dump has the same ${scope}`,
      );
    }
    names.add(name!);
    result.objects.push(obj);
  };
  roots.forEach((r, i) => visit(r, roots.length > 1 ? `document[${i}]` : '', PathStep.Self, 0));
  return result;
}
