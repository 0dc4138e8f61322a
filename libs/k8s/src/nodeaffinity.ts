// Node selector / node affinity matching with component-helpers nodeaffinity semantics.
import type {
  Node,
  NodeSelector,
  NodeSelectorRequirement,
  NodeSelectorTerm,
  Pod,
  PreferredSchedulingTerm,
} from './types';
import {
  requirementErrors,
  selectorFromRequirements,
  selectorFromSet,
  type Requirement,
  type RequirementOperator,
  type Selector,
} from './labels';

/** A problem found while parsing a term; such a term never matches (upstream's lazy errors). */
export interface NodeSelectorParseError {
  field: string;
  detail: string;
}

export interface CompiledNodeSelector {
  match(node: Node): boolean;
  /** Parse problems of skipped terms, with upstream-style field paths. */
  readonly errors: readonly NodeSelectorParseError[];
}

export interface CompiledPreferredSchedulingTerms {
  score(node: Node): number;
  /** Non-empty when upstream NewPreferredSchedulingTerms would have failed (invalid terms are skipped here). */
  readonly errors: readonly NodeSelectorParseError[];
}

// A Map: an object's lookup would also find "constructor", "toString" … on its prototype.
const NODE_SELECTOR_OPS: ReadonlyMap<string, RequirementOperator> = new Map([
  ['In', 'in'],
  ['NotIn', 'notin'],
  ['Exists', 'exists'],
  ['DoesNotExist', '!'],
  ['Gt', 'gt'],
  ['Lt', 'lt'],
]);
const SUPPORTED_OPS = '"DoesNotExist", "Exists", "Gt", "In", "Lt", "NotIn"';
const SUPPORTED_FIELD_OPS = '"In", "NotIn"';

interface FieldRequirement {
  key: string;
  value: string;
  equal: boolean;
}

interface CompiledTerm {
  labels?: Selector;
  fields?: FieldRequirement[];
}

function isEmptyTerm(term: NodeSelectorTerm | null | undefined): boolean {
  return !term || ((term.matchExpressions?.length ?? 0) === 0 && (term.matchFields?.length ?? 0) === 0);
}

function compileExpressions(
  exprs: NodeSelectorRequirement[],
  path: string,
  errs: NodeSelectorParseError[],
): Selector | undefined {
  const reqs: Requirement[] = [];
  let ok = true;
  exprs.forEach((expr, i) => {
    const p = `${path}[${i}]`;
    const op = NODE_SELECTOR_OPS.get(expr.operator as string);
    if (!op) {
      errs.push({
        field: `${p}.operator`,
        detail: `Unsupported value: "${expr.operator}": supported values: ${SUPPORTED_OPS}`,
      });
      ok = false;
      return;
    }
    const values = expr.values ?? [];
    const rErrs = requirementErrors(expr.key, op, values, p);
    if (rErrs.length) {
      errs.push(...rErrs);
      ok = false;
      return;
    }
    reqs.push({ key: expr.key, operator: op, values: [...values] });
  });
  return ok ? selectorFromRequirements(reqs) : undefined;
}

function compileFields(
  exprs: NodeSelectorRequirement[],
  path: string,
  errs: NodeSelectorParseError[],
): FieldRequirement[] {
  const out: FieldRequirement[] = [];
  exprs.forEach((expr, i) => {
    const p = `${path}[${i}]`;
    if (expr.operator !== 'In' && expr.operator !== 'NotIn') {
      errs.push({
        field: `${p}.operator`,
        detail: `Unsupported value: "${expr.operator}": supported values: ${SUPPORTED_FIELD_OPS}`,
      });
      return;
    }
    const values = expr.values ?? [];
    if (values.length !== 1) {
      errs.push({ field: `${p}.values`, detail: 'must have one element' });
      return;
    }
    out.push({ key: expr.key, value: values[0], equal: expr.operator === 'In' });
  });
  return out;
}

/** Parses one non-empty term; returns undefined (and records errors) when it is invalid. */
function compileTerm(
  term: NodeSelectorTerm,
  path: string,
  errors: NodeSelectorParseError[],
): CompiledTerm | undefined {
  const errs: NodeSelectorParseError[] = [];
  const compiled: CompiledTerm = {};
  if (term.matchExpressions?.length)
    compiled.labels = compileExpressions(term.matchExpressions, `${path}.matchExpressions`, errs);
  if (term.matchFields?.length)
    compiled.fields = compileFields(term.matchFields, `${path}.matchFields`, errs);
  if (errs.length) {
    errors.push(...errs);
    return undefined;
  }
  return compiled;
}

function matchTerm(t: CompiledTerm, node: Node): boolean {
  if (t.labels && !t.labels.matches(node.metadata?.labels)) return false;
  // Upstream only consults field requirements when the node has fields, i.e. a non-empty name.
  const name = node.metadata?.name;
  if (t.fields && name) {
    for (const f of t.fields) {
      const actual = f.key === 'metadata.name' ? name : '';
      if ((actual === f.value) !== f.equal) return false;
    }
  }
  return true;
}

/**
 * Compiles a NodeSelector: terms are ORed; within a term, matchExpressions (labels) and
 * matchFields (metadata.name) are ANDed. Empty or invalid terms match nothing.
 */
export function compileNodeSelector(
  ns: NodeSelector | null | undefined,
  path = 'nodeSelectorTerms',
): CompiledNodeSelector {
  const errors: NodeSelectorParseError[] = [];
  const terms: CompiledTerm[] = [];
  (ns?.nodeSelectorTerms ?? []).forEach((term, i) => {
    if (isEmptyTerm(term)) return;
    const t = compileTerm(term, `${path}[${i}]`, errors);
    if (t) terms.push(t);
  });
  return {
    errors,
    match(node: Node): boolean {
      if (!node) return false;
      for (let i = 0; i < terms.length; i++) if (matchTerm(terms[i], node)) return true;
      return false;
    },
  };
}

/** Sum of the weights of the matching preferred terms (zero-weight and empty terms never count). */
export function compilePreferredSchedulingTerms(
  terms: readonly PreferredSchedulingTerm[] | null | undefined,
): CompiledPreferredSchedulingTerms {
  const errors: NodeSelectorParseError[] = [];
  const parsed: { term: CompiledTerm; weight: number }[] = [];
  (terms ?? []).forEach((term, i) => {
    if (!term.weight || isEmptyTerm(term.preference)) return;
    const t = compileTerm(term.preference, `[${i}].preference`, errors);
    if (t) parsed.push({ term: t, weight: term.weight });
  });
  return {
    errors,
    score(node: Node): number {
      let score = 0;
      for (const p of parsed) if (matchTerm(p.term, node)) score += p.weight;
      return score;
    },
  };
}

export interface RequiredNodeAffinity {
  match(node: Node): boolean;
  readonly errors: readonly NodeSelectorParseError[];
}

/** spec.nodeSelector AND requiredDuringSchedulingIgnoredDuringExecution (GetRequiredNodeAffinity). */
export function requiredNodeAffinityOf(pod: Pod): RequiredNodeAffinity {
  const nodeSelector = pod.spec?.nodeSelector;
  const labelSel =
    nodeSelector && Object.keys(nodeSelector).length > 0 ? selectorFromSet(nodeSelector) : undefined;
  const required = pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  const affinity = required ? compileNodeSelector(required) : undefined;
  return {
    errors: affinity?.errors ?? [],
    match(node: Node): boolean {
      if (labelSel && !labelSel.matches(node.metadata?.labels)) return false;
      return affinity ? affinity.match(node) : true;
    },
  };
}
