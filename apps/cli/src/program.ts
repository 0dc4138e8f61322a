import { Command } from 'commander';
import { commandRegistrations } from './commands';

export interface ProgramOptions {
  version: string;
  /** Where commands write; tests capture it instead of the terminal. */
  out?: (text: string) => void;
  err?: (text: string) => void;
}

export function createProgram(options: ProgramOptions): Command {
  const program = new Command('schedlab')
    .description('Schedlab: kube-scheduler what-if simulations as a service')
    .version(options.version, '-V, --version', 'print the version')
    .showHelpAfterError()
    .configureOutput({
      writeOut: options.out ?? ((text) => process.stdout.write(text)),
      writeErr: options.err ?? ((text) => process.stderr.write(text)),
    });
  for (const register of commandRegistrations) register(program);
  return program;
}
