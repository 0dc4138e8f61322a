import { MAX_NODE_SCORE, NodeScore } from '../../interface';

/**
 * Scales scores so the highest becomes `maxPriority` (upstream helper.DefaultNormalizeScore);
 * `reverse` flips them so that fewer "bad" points score higher. All-zero scores stay 0, or
 * become `maxPriority` when reversed.
 */
export function defaultNormalizeScore(maxPriority: number, reverse: boolean, scores: NodeScore[]): void {
  // Indexed loops: runs once per plugin per pod over every feasible node, no iterator objects.
  const n = scores.length;
  let max = 0;
  for (let i = 0; i < n; i++) if (scores[i].score > max) max = scores[i].score;
  if (max === 0) {
    if (reverse) for (let i = 0; i < n; i++) scores[i].score = maxPriority;
    return;
  }
  for (let i = 0; i < n; i++) {
    const s = scores[i];
    // Integer division, as the Go code truncates.
    let v = Math.trunc((maxPriority * s.score) / max);
    if (reverse) v = maxPriority - v;
    s.score = v;
  }
}

export { MAX_NODE_SCORE };
