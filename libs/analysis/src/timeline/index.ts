// The timeline run (docs/timeline.md): a YAML timeline over a cluster on a simulated clock.
export * from './input';
export * from './result';
export { runTimeline, type TimelineRunOptions } from './driver';
