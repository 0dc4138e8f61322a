import {
  AdmissionError,
  LabelSelectorError,
  ObjectValidationError,
  ParseError,
  QuantityError,
} from '@schedlab/k8s';
import { ConfigValidationError } from '@schedlab/scheduler';

/** The documented exit codes of the schedlab commands that read input files. */
export const ExitCode = {
  ok: 0,
  /** Bad usage or bad input: the message names the file, object and field. */
  usage: 1,
  /** A bug in Schedlab: the input was valid but the engine failed. */
  internal: 2,
} as const;

/** A problem in a file the user gave us; printed as `schedlab: <file>: <message>`. */
export class InputFileError extends Error {
  constructor(
    readonly file: string,
    readonly detail: string,
  ) {
    super(`${file}: ${detail}`);
    this.name = 'InputFileError';
  }
}

/** A problem with the command line itself (e.g. a pod that the dump does not contain). */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** Errors the k8s and scheduler libraries raise for invalid user input (never for their own bugs). */
export function isInvalidInput(error: unknown): error is Error {
  return (
    error instanceof ParseError ||
    error instanceof ObjectValidationError ||
    error instanceof ConfigValidationError ||
    error instanceof QuantityError ||
    error instanceof AdmissionError ||
    error instanceof LabelSelectorError
  );
}

/** Runs `load` and attributes any invalid-input error it raises to `file`. */
export function attributeTo<T>(file: string, load: () => T): T {
  try {
    return load();
  } catch (error) {
    if (isInvalidInput(error)) throw new InputFileError(file, error.message);
    throw error;
  }
}

/** Writes the error the way the exit-code table documents and returns the exit code for it. */
export function reportFailure(error: unknown, writeErr: (text: string) => void): number {
  if (error instanceof InputFileError || error instanceof UsageError) {
    writeErr(`schedlab: ${error.message}\n`);
    return ExitCode.usage;
  }
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  writeErr(`schedlab: internal error (please report it with the input that caused it): ${detail}\n`);
  return ExitCode.internal;
}

/** The `--help` text that lists the exit codes. */
export const EXIT_CODES_HELP = `
Exit codes:
  0  success (unschedulable pods are a result, not a failure)
  1  usage or input error; the message names the file, object and field
  2  internal error in Schedlab`;
