import { COMMANDS, commandHelp, usage } from './cli/commands.js';
import { UsageError } from './cli/args.js';
import { connectionProblem } from './cli/connection-problem.js';

/**
 * `topup`: the table of commands (cli/commands.ts) and, for the command run, its module
 * alone: help loads nothing else, and each command only what it uses.
 */
const [command, ...args] = process.argv.slice(2);
const wantsHelp = (words: string[]) => words.includes('--help') || words.includes('-h');

if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
  const about = command === 'help' ? args[0] : undefined;
  if (about !== undefined && !COMMANDS[about]) fail(`topup: no command "${about}"; \`topup --help\` lists them`, 2);
  process.stdout.write(about ? commandHelp(about) : usage());
} else if (!COMMANDS[command]) {
  fail(`topup: no command "${command}"; \`topup --help\` lists them`, 2);
} else if (wantsHelp(args)) {
  process.stdout.write(commandHelp(command));
} else {
  const info = COMMANDS[command];
  info.load().then((module) => module[command]!(args)).catch((e: unknown) => {
    if (e instanceof UsageError) fail(e.message, 2);
    if (e instanceof Error && e.name === 'AppError') fail(e.message, 1);
    if (e instanceof Error && e.name === 'WrongMasterKey') fail(e.message, 1);
    const refused = connectionProblem(e, command);
    if (refused) fail(refused, 1);
    process.stderr.write(`${e instanceof Error ? e.stack ?? e.message : String(e)}\n`);
    process.exit(1);
  });
}

function fail(message: string, code: number): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}
