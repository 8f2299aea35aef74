// Placeholder until the owning issue lands; replaced by the real command.
import { HarnessError } from '../../errors.js';
import { defineCommand } from '../command.js';

export const loadCommand = defineCommand({
  command: 'load',
  describe: '(not yet available)',
  builder: (y) => y,
  run: async () => {
    throw new HarnessError('INTERNAL', 'load is not available yet');
  },
});
