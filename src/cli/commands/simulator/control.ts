/** The runs of `simulator clock|churn|faults [VALUE]`: the words into a request for simulator-control.ts. */
import { stringOption } from '../../command.js';
import { runSimulatorControl, type ControlCommand } from '../../simulator-control.js';
import type { CommandContext, Values } from '../../spec.js';
import type { simulatorControlOptions, simulatorFaultsOptions } from './spec.js';

export function controlRun(command: Exclude<ControlCommand, 'faults'>) {
  return (values: Values<typeof simulatorControlOptions>, args: string[], ctx: CommandContext): Promise<number> =>
    runSimulatorControl({ command, args, url: stringOption(values, 'url') }, ctx);
}

export function faultsRun(
  values: Values<typeof simulatorFaultsOptions>,
  args: string[],
  ctx: CommandContext,
): Promise<number> {
  return runSimulatorControl(
    {
      command: 'faults',
      args,
      url: stringOption(values, 'url'),
      script: stringOption(values, 'script'),
      clear: values.clear === true,
    },
    ctx,
  );
}
