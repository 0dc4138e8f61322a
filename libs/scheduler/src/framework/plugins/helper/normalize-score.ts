import { MAX_NODE_SCORE, NodeScore } from '../../interface';

/**
 * Scales scores so the highest becomes `maxPriority` (upstream helper.DefaultNormalizeScore);
 * `reverse` flips them so that fewer "bad" points score higher. All-zero scores stay 0, or
 * become `maxPriority` when reversed.
 */
export function defaultNormalizeScore(maxPriority: number, reverse: boolean, scores: NodeScore[]): void {
  let max = 0;
  for (const s of scores) if (s.score > max) max = s.score;
  if (max === 0) {
    if (reverse) for (const s of scores) s.score = maxPriority;
    return;
  }
  for (const s of scores) {
    // Integer division, as the Go code truncates.
    let v = Math.trunc((maxPriority * s.score) / max);
    if (reverse) v = maxPriority - v;
    s.score = v;
  }
}

export { MAX_NODE_SCORE };
