/** One problem in a KubeSchedulerConfiguration, addressed like upstream's field paths. */
export interface ConfigFieldError {
  /** e.g. `profiles[0].plugins.score.enabled[1].weight`; empty for whole-document problems. */
  field: string;
  message: string;
}

export function formatFieldError(e: ConfigFieldError): string {
  return e.field ? `${e.field}: ${e.message}` : e.message;
}

/** Thrown by the loader; `errors` lists every problem found in the failing phase. */
export class ConfigValidationError extends Error {
  constructor(readonly errors: ConfigFieldError[]) {
    // Upstream aggregates print a single error bare and several as "[a, b]".
    super(errors.length === 1 ? formatFieldError(errors[0]) : `[${errors.map(formatFieldError).join(', ')}]`);
    this.name = 'ConfigValidationError';
  }
}

/** field.Invalid's rendering: strings quoted, numbers and booleans bare. */
export function invalidValue(value: unknown, detail: string): string {
  const shown =
    typeof value === 'string'
      ? JSON.stringify(value)
      : value === undefined || value === null
        ? 'null'
        : String(value);
  return `Invalid value: ${shown}: ${detail}`;
}
