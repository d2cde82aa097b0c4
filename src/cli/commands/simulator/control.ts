/** The runs of `simulator clock|churn|faults [VALUE]`: the words into a request for simulator-control.ts. */
import { stringOption } from '../../command.js';
import { runSimulatorControl, type ControlCommand } from '../../simulator-control.js';
import type { CommandContext, Values } from '../../spec.js';
import type { simulatorControlOptions } from './spec.js';

export function controlRun(command: ControlCommand) {
  return (values: Values<typeof simulatorControlOptions>, args: string[], ctx: CommandContext): Promise<number> =>
    runSimulatorControl({ command, args, url: stringOption(values, 'url') }, ctx);
}
