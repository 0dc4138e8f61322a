import type { DestinationStream } from 'pino';

const LEVEL_NAMES: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};

/** Fields every line has (or that the one-line form already shows). */
const SHOWN = new Set([
  'level',
  'time',
  'pid',
  'hostname',
  'msg',
  'context',
  'service',
  'req',
  'res',
  'responseTime',
]);

/**
 * One pino JSON line as a person reads it: `12:04:05 INFO  [api] GET /v1/runs 200 4ms (req-id) msg`,
 * with any other fields appended as JSON. Lines that are not JSON pass through unchanged.
 */
export function prettyLine(line: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  if (typeof entry !== 'object' || entry === null) return line;
  const time = typeof entry.time === 'number' ? new Date(entry.time).toISOString().slice(11, 19) : '--:--:--';
  const level = (LEVEL_NAMES[entry.level as number] ?? String(entry.level)).padEnd(5);
  const parts = [time, level];
  const context = entry.context ?? entry.service;
  if (typeof context === 'string') parts.push(`[${context}]`);
  const req = entry.req as { id?: string; method?: string; url?: string } | undefined;
  const res = entry.res as { statusCode?: number } | undefined;
  if (req?.method) parts.push(`${req.method} ${req.url ?? ''}`);
  if (res?.statusCode !== undefined) parts.push(String(res.statusCode));
  if (typeof entry.responseTime === 'number') parts.push(`${entry.responseTime}ms`);
  if (req?.id) parts.push(`(${req.id})`);
  if (entry.msg !== undefined)
    parts.push(typeof entry.msg === 'string' ? entry.msg : JSON.stringify(entry.msg));
  const rest = Object.fromEntries(Object.entries(entry).filter(([key]) => !SHOWN.has(key)));
  if (Object.keys(rest).length > 0) parts.push(JSON.stringify(rest));
  return `${parts.join(' ')}\n`;
}

/** Wraps a destination so each line is written in prettyLine's form (NODE_ENV=development). */
export function prettyDestination(out: { write(chunk: string): unknown }): DestinationStream {
  return {
    write: (chunk: string) => void out.write(chunk.split('\n').filter(Boolean).map(prettyLine).join('')),
  };
}
