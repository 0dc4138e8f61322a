import { Command, Help } from 'commander';
import { commandEntries } from './commands';

export interface ProgramOptions {
  version: string;
  /**
   * The command line the program will parse. Given, only the module of the command it names is
   * loaded (none for `--version` or `--help`, which list the commands from `commandEntries`), so a
   * command pays only for the libraries it uses. Without it every command is loaded.
   */
  argv?: readonly string[];
  /** Where commands write; tests capture it instead of the terminal. */
  out?: (text: string) => void;
  err?: (text: string) => void;
}

/** The subcommand `argv` (node, script, args…) runs or asks help for, if it names one. */
export function commandNamed(argv: readonly string[]): string | undefined {
  const words = argv.slice(2).filter((arg) => !arg.startsWith('-'));
  const name = words[0] === 'help' ? words[1] : words[0];
  return commandEntries.some((entry) => entry.name === name) ? name : undefined;
}

/**
 * kubectl's habit: a usage error (a missing or unknown option, a bad value) is one line that says
 * where the help is, `error: required option '--cluster <file>' not specified; see 'schedlab
 * simulate --help'`, not the whole help. Set on every command once they are all registered.
 */
function pointErrorsAtHelp(command: Command, path = command.name()): Command {
  command.configureOutput({
    outputError: (text, write) => write(`${text.trimEnd().replace(/\.$/, '')}; see '${path} --help'\n`),
  });
  for (const sub of command.commands) pointErrorsAtHelp(sub, `${path} ${sub.name()}`);
  return command;
}

export function createProgram(options: ProgramOptions): Command {
  const program = new Command('schedlab')
    .description('Schedlab: kube-scheduler what-if simulations as a service')
    .version(options.version, '-V, --version', 'print the version')
    .configureOutput({
      writeOut: options.out ?? ((text) => process.stdout.write(text)),
      writeErr: options.err ?? ((text) => process.stderr.write(text)),
    });
  if (!options.argv) {
    for (const entry of commandEntries) entry.load()(program);
    return pointErrorsAtHelp(program);
  }
  const named = commandNamed(options.argv);
  const chosen = commandEntries.find((entry) => entry.name === named);
  if (chosen) {
    chosen.load()(program);
  } else {
    // Listed, not loaded: placeholders that only `schedlab --help` and error messages see.
    const listed = new WeakMap<Command, string>();
    for (const entry of commandEntries)
      listed.set(program.command(entry.name).description(entry.description), entry.term);
    const help = new Help();
    program.configureHelp({
      subcommandTerm: (command) => listed.get(command) ?? help.subcommandTerm(command),
    });
  }
  return pointErrorsAtHelp(program);
}
