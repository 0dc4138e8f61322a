/** Left-aligned columns separated by two spaces, like kubectl's tables; the last column is not padded. */
export function formatTable(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
  indent = '',
): string[] {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    indent +
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(headers), ...rows.map(line)];
}
