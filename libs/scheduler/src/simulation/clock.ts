/**
 * The simulation's clock: a run happens at its start time base (default below), bound pods start
 * one second apart from it, and time-dependent plugin checks (DRA's binding timeout) read it.
 */
export const DEFAULT_START_TIME_BASE = '2030-01-01T00:00:00Z';
