/**
 * A `page_size` reading: the stack's integer parser decides what the text denotes; the reference then acts
 * on that integer (clamping per ruling 9), or the stack refuses the text with its own status.
 */
import { defineFault } from '../../faults/support/define.js';
import { errorResponse, routeOf, withQuery } from '../../faults/support/http.js';
import type { FaultDeclaration } from '../../faults/types.js';
import type { RequirementId } from '../../requirements.js';

export interface PageSizeReading {
  name: string;
  description: string;
  /** SHOULD checks the reading fails. */
  warns: RequirementId[];
  /** The integer the stack reads the text as, or undefined when its parser refuses it. */
  parse: (text: string) => number | undefined;
  /** The status the stack answers a refused text with. */
  refusal: number;
}

export function pageSizeReading(spec: PageSizeReading): FaultDeclaration {
  return defineFault({
    name: spec.name,
    description: spec.description,
    breaks: spec.warns,
    wrap: (handler) => async (request) => {
      const route = routeOf(request);
      const values = route.kind === 'api' && route.operation === 'entitlements' ? route.query.getAll('page_size') : [];
      if (values.length !== 1 || values[0] === '') return handler(request);
      const value = spec.parse(values[0]!);
      if (value === undefined) return errorResponse(spec.refusal, 'invalid_request', 'page_size is not an integer');
      return handler(withQuery(request, (query) => query.set('page_size', String(value))));
    },
  });
}
