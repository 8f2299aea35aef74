// k6-style durations ("90s", "2m", "1h30m", "500ms") as seconds. Pure: shared by the scripts' input checks.

const PART = /(\d+(?:\.\d+)?)(ms|s|m|h)/g;
/** @type {Record<string, number>} */
const SCALE = { ms: 0.001, s: 1, m: 60, h: 3600 };

/**
 * @param {string} text e.g. "30s", "2m", "1h30m", or a bare number of seconds
 * @returns {number} seconds (> 0)
 */
export function parseDuration(text) {
  const trimmed = String(text).trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return positive(Number(trimmed), text);
  let total = 0;
  let consumed = '';
  let match;
  PART.lastIndex = 0;
  while ((match = PART.exec(trimmed)) !== null) {
    total += Number(match[1]) * SCALE[match[2]];
    consumed += match[0];
  }
  if (consumed !== trimmed) {
    throw new Error('Not a duration: "' + text + '" (write e.g. 30s, 2m, 1h30m)');
  }
  return positive(total, text);
}

/**
 * @param {number} value
 * @param {string} text
 */
function positive(value, text) {
  if (!(value > 0) || !isFinite(value)) throw new Error('A duration must be more than zero: "' + text + '"');
  return value;
}

/**
 * @typedef {object} Stage
 * @property {string} duration k6 duration
 * @property {number} durationSeconds
 * @property {number} target requests per second reached at the end of the stage
 */

/**
 * `30s:100,1m:500`: ramp linearly to 100/s over 30 s, then to 500/s over 1 min (ramping-arrival-rate).
 * @param {string} text
 * @returns {Stage[]}
 */
export function parseStages(text) {
  const stages = String(text)
    .split(',')
    .map(function (part) {
      return part.trim();
    })
    .filter(function (part) {
      return part.length > 0;
    })
    .map(function (part) {
      const pieces = part.split(':');
      const target = Number(pieces[1]);
      if (pieces.length !== 2 || !(target >= 0) || !isFinite(target)) {
        throw new Error('Not a stage: "' + part + '" (write duration:rate, e.g. 30s:100)');
      }
      return { duration: pieces[0], durationSeconds: parseDuration(pieces[0]), target: target };
    });
  if (stages.length === 0) throw new Error('STAGES is empty (write e.g. 30s:100,1m:500)');
  return stages;
}

/**
 * Requests a linear ramp sends: the area under the rate curve, starting from `startRate`.
 * @param {Stage[]} stages
 * @param {number} startRate
 * @returns {number}
 */
export function stagesIterations(stages, startRate) {
  let from = startRate;
  let total = 0;
  for (let i = 0; i < stages.length; i++) {
    total += ((from + stages[i].target) / 2) * stages[i].durationSeconds;
    from = stages[i].target;
  }
  return Math.ceil(total);
}
