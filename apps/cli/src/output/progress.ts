/** Below this many pods a run is over before a bar would be worth drawing. */
const MIN_PODS_FOR_PROGRESS = 200;
const BAR_WIDTH = 30;

interface ProgressStream {
  isTTY?: boolean;
  write(text: string): unknown;
}

/**
 * A progress bar on an interactive stderr; undefined (no output at all) when stderr is a pipe or
 * file, so logs and captured output stay clean.
 */
export function progressBar(
  stream: ProgressStream = process.stderr,
): ((done: number, total: number) => void) | undefined {
  if (!stream.isTTY) return undefined;
  let shownPercent = -1;
  return (done, total) => {
    if (total < MIN_PODS_FOR_PROGRESS) return;
    const percent = Math.floor((done * 100) / total);
    if (percent === shownPercent && done !== total) return;
    shownPercent = percent;
    const filled = Math.round((BAR_WIDTH * done) / total);
    stream.write(
      `\r[${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}] ${percent}% ${done}/${total} pods`,
    );
    // Erase the bar when finished so the table starts on a clean terminal line.
    if (done === total) stream.write(`\r${' '.repeat(BAR_WIDTH + 30)}\r`);
  };
}
