/**
 * Errors that mean the run's input is bad: retrying cannot change the outcome, so the run fails
 * once with the engine's message instead of burning its retries.
 */
import { LabelSelectorError, ObjectValidationError, ParseError, QuantityError } from '@schedlab/k8s';
import { ConfigValidationError } from '@schedlab/scheduler';
import { ScenarioError } from '@schedlab/scenarios';
import { InvalidWorkloadsError } from '@schedlab/workloads';
import { ZodError } from 'zod';
import { RunInputError } from './engine-task';

const DETERMINISTIC = [
  ObjectValidationError,
  ParseError,
  QuantityError,
  LabelSelectorError,
  ConfigValidationError,
  ScenarioError,
  RunInputError,
  InvalidWorkloadsError, // strict expansion: a workload in the snapshot is invalid
  ZodError,
  SyntaxError, // unparseable stored JSON
];

export function isDeterministicError(error: unknown): boolean {
  return DETERMINISTIC.some((type) => error instanceof type);
}

/** Class name for logs; ObjectValidationError reuses `.name` for the object's name. */
export function errorClassOf(error: unknown): string {
  return (error as object)?.constructor?.name ?? 'Error';
}
