/**
 * How many feasible nodes to look for before stopping (upstream numFeasibleNodesToFind):
 * all of them below 100 nodes, otherwise a percentage that shrinks as clusters grow.
 */
export const MIN_FEASIBLE_NODES_TO_FIND = 100;
export const MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND = 5;

export function numFeasibleNodesToFind(
  percentageOfNodesToScore: number | undefined,
  numAllNodes: number,
): number {
  if (numAllNodes < MIN_FEASIBLE_NODES_TO_FIND) return numAllNodes;
  let percentage = percentageOfNodesToScore ?? 0;
  if (percentage === 0) {
    percentage = 50 - Math.trunc(numAllNodes / 125);
    if (percentage < MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND)
      percentage = MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND;
  }
  const numNodes = Math.trunc((numAllNodes * percentage) / 100);
  return numNodes < MIN_FEASIBLE_NODES_TO_FIND ? MIN_FEASIBLE_NODES_TO_FIND : numNodes;
}
