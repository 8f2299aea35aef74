import { contextRunner } from '../../faults/support/context.js';
import { defineFault } from '../../faults/support/define.js';
import { defineVariant } from '../define.js';

export const contextNumbersAsDoubles = defineVariant(
  { area: 'automations', stacks: 'protobuf `Struct` (CEL-based automation engines), JavaScript `JSON.parse`, Go `json.Unmarshal` into `interface{}` (float64)', touches: ['RUN-X03', 'RUN-X04', 'RUN-X07'] },
  defineFault({
    name: 'context-numbers-as-doubles',
    description: 'Holds the context\'s numbers as doubles (RFC 8259 §6 allows it): beyond 2^53 or a double\'s precision digits are lost, -0 becomes 0, 1e400 becomes null.',
    breaks: ['RUN-X01', 'RUN-X02'],
    // The parsed value without the body's text: the runs hook writes it with JSON.stringify.
    ports: contextRunner((context) => context),
  }),
);
