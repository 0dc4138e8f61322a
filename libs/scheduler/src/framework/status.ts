/**
 * Plugin verdicts, mirroring upstream framework.Code. `null` stands for Success everywhere,
 * as upstream's nil *Status does, so the hot filter path allocates nothing for passing nodes.
 */
export enum Code {
  Success = 0,
  Error = 1,
  Unschedulable = 2,
  UnschedulableAndUnresolvable = 3,
  Wait = 4,
  Skip = 5,
}

export class Status {
  /** Name of the plugin that produced the status; set by the framework runtime. */
  plugin = '';

  constructor(
    readonly code: Code,
    readonly reasons: readonly string[] = [],
    readonly error?: Error,
  ) {}

  static unschedulable(...reasons: string[]): Status {
    return new Status(Code.Unschedulable, reasons);
  }

  static unresolvable(...reasons: string[]): Status {
    return new Status(Code.UnschedulableAndUnresolvable, reasons);
  }

  static skip(): Status {
    return new Status(Code.Skip);
  }

  static error(err: Error | string): Status {
    const e = typeof err === 'string' ? new Error(err) : err;
    return new Status(Code.Error, [e.message], e);
  }

  withPlugin(plugin: string): Status {
    this.plugin = plugin;
    return this;
  }

  message(): string {
    return this.reasons.join(', ');
  }
}

/** A possibly-null status; null means Success. */
export type MaybeStatus = Status | null;

export function isSuccess(s: MaybeStatus): boolean {
  return s === null || s.code === Code.Success;
}

export function isSkip(s: MaybeStatus): boolean {
  return s !== null && s.code === Code.Skip;
}

/** Unschedulable or UnschedulableAndUnresolvable, as upstream IsRejected()/IsUnschedulable(). */
export function isRejected(s: MaybeStatus): boolean {
  return s !== null && (s.code === Code.Unschedulable || s.code === Code.UnschedulableAndUnresolvable);
}

export function codeName(code: Code): string {
  return Code[code];
}
