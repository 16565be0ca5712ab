import { fulfilmentCommands } from './cli/fulfilment-commands.js';
import { catalogCommands } from './cli/catalog-commands.js';
import { operatorCommands } from './cli/operator-commands.js';
import { serviceCommands } from './cli/service-commands.js';
import { pricingCommands } from './cli/pricing-commands.js';
import { UsageError, type CommandSet } from './cli/support.js';

/** `topup`: one table of commands, each area's commands in its own module under src/cli/. */
const sets: CommandSet[] = [serviceCommands, operatorCommands, catalogCommands, fulfilmentCommands, pricingCommands];

const USAGE = `Usage: topup <command> [--json]

Commands:
${sets.map((s) => s.usage).join('\n')}
`;

const [command, ...args] = process.argv.slice(2);
const run = command ? sets.find((s) => command in s.commands)?.commands[command] : undefined;
if (!run) {
  process.stdout.write(USAGE);
  process.exit(command ? 2 : 0);
} else {
  run(args).catch((e) => {
    if (e instanceof UsageError || (e instanceof Error && e.name === 'AppError')) process.stderr.write(`${e.message}\n`);
    else process.stderr.write(`${e instanceof Error ? e.stack ?? e.message : String(e)}\n`);
    process.exit(e instanceof UsageError ? 2 : 1);
  });
}
