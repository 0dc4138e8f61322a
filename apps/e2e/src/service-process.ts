import { type ChildProcess, fork } from 'node:child_process';
import path from 'node:path';

const workspaceRoot = path.resolve(__dirname, '..', '..', '..');

export interface ServiceProcess {
  child: ChildProcess;
  output: () => string;
  stop: () => Promise<void>;
}

/**
 * Starts the compiled app, dist/apps/<name>/src/main.js, as its own process, exactly as `npm run up`
 * does (Jest's globalSetup compiles it first), and resolves with the first IPC message it sends
 * once ready (or rejects with its output if it exits first).
 */
export function startService<T extends { type: string }>(
  name: 'api' | 'worker',
  env: NodeJS.ProcessEnv,
): Promise<{ service: ServiceProcess; ready: T }> {
  const child = fork(path.join(workspaceRoot, 'dist', 'apps', name, 'src', 'main.js'), [], {
    cwd: workspaceRoot,
    env: { ...process.env, ...env },
    execArgv: ['--enable-source-maps'],
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const service: ServiceProcess = {
    child,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
  return new Promise((resolve, reject) => {
    child.once('message', (message) => resolve({ service, ready: message as T }));
    child.once('exit', (code) =>
      reject(new Error(`${name} exited with ${code} before it was ready:\n${output}`)),
    );
  });
}
