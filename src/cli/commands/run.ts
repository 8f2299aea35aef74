// Placeholder until the owning issue lands; replaced by the real command.
import { HarnessError } from '../../errors.js';
import { defineCommand } from '../command.js';

export const runCommand = defineCommand({
  command: 'run',
  describe: '(not yet available)',
  builder: (y) => y,
  run: async () => {
    throw new HarnessError('INTERNAL', 'run is not available yet');
  },
});
