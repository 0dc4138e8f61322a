export * from './low-node-utilization';
export * from './high-node-utilization';
