// k6 execution segments as the scripts see them. k6 does not tell a script's init code which segment it
// runs (`exec.test.options` throws there), and thresholds are fixed at init, so a script that derives a
// budget from the whole test (planned iterations × a share) would hand every instance the whole test's
// budget. The scripts therefore take the segment as -e EXECUTION_SEGMENT (and _SEQUENCE), set it as k6's
// own `executionSegment` option, and scale their budgets with it. Pure.

/**
 * @typedef {object} Fraction
 * @property {number} num
 * @property {number} den
 */

/**
 * @typedef {object} Segment
 * @property {string} text as k6 writes it, e.g. "1/3:2/3"
 * @property {Fraction} start
 * @property {Fraction} end
 * @property {number} width end − start, as a number (0..1]
 */

/**
 * "1/3", "0.25", "25%", "0" or "1" as an exact fraction in [0, 1].
 * @param {string} text
 * @returns {Fraction}
 */
export function parseFraction(text) {
  const t = String(text).trim();
  /** @type {Fraction | undefined} */
  let f;
  let match = /^(\d+)\/(\d+)$/.exec(t);
  if (match) f = { num: Number(match[1]), den: Number(match[2]) };
  match = match ? null : /^(\d+)(?:\.(\d+))?(%?)$/.exec(t);
  if (match) {
    const decimals = match[2] || '';
    const scale = Math.pow(10, decimals.length) * (match[3] ? 100 : 1);
    f = { num: Number(match[1] + decimals), den: scale };
  }
  if (!f || !(f.den > 0) || f.num > f.den || !isFinite(f.num) || !isFinite(f.den)) {
    throw new Error('Not a segment bound: "' + text + '" (write a fraction from 0 to 1, e.g. 1/3, 0.5 or 50%)');
  }
  return f;
}

/**
 * `0:1/2`, `1/2:1`, or `1/3` (meaning `0:1/3`), as k6's --execution-segment takes it.
 * @param {string} text
 * @returns {Segment}
 */
export function parseSegment(text) {
  const parts = String(text).trim().split(':');
  if (parts.length > 2) throw new Error('Not an execution segment: "' + text + '" (write start:end, e.g. 0:1/2)');
  const start = parts.length === 2 ? parseFraction(parts[0]) : { num: 0, den: 1 };
  const end = parseFraction(parts[parts.length - 1]);
  const width = end.num / end.den - start.num / start.den;
  if (!(width > 0)) throw new Error('Execution segment "' + text + '" is empty: its end must be after its start');
  return { text: String(text).trim(), start: start, end: end, width: width };
}

/**
 * The iterations of `total` that fall to this segment: floor(total × end) − floor(total × start). The
 * shares of complementary segments add up to `total` exactly (the floors telescope), which is what makes
 * budgets derived from them add up too. k6's own striping may give an instance one iteration more or less
 * at the edges; this is the budget's basis, not a prediction of k6's count.
 * @param {number} total whole-test planned iterations
 * @param {Segment | null} segment null: the whole test
 * @returns {number}
 */
export function segmentShare(total, segment) {
  if (!segment) return total;
  return floorTimes(total, segment.end) - floorTimes(total, segment.start);
}

/**
 * @param {number} n whole number
 * @param {Fraction} f
 */
function floorTimes(n, f) {
  return Math.floor((n * f.num) / f.den);
}

/**
 * Whether k6 runs the segment the script scaled its budgets for. `running` is `exec.test.options`'s
 * executionSegment (available from setup() on): null or "" for the whole test.
 * @param {Segment | null} assumed
 * @param {string | null | undefined} running
 * @returns {string | undefined} a warning when they differ
 */
export function segmentMismatch(assumed, running) {
  const runningText = running ? String(running) : '';
  if (!assumed && runningText === '') return undefined;
  if (assumed && runningText !== '') {
    const other = parseSegment(runningText);
    if (sameFraction(other.start, assumed.start) && sameFraction(other.end, assumed.end)) return undefined;
  }
  return (
    'k6 runs execution segment ' + (runningText || 'the whole test') + ' but the thresholds were scaled for ' +
    (assumed ? assumed.text : 'the whole test') + ': give the segment as -e EXECUTION_SEGMENT=… (and -e EXECUTION_SEGMENT_SEQUENCE=…) ' +
    'instead of --execution-segment, so the dropped-iteration budget is this instance\'s share'
  );
}

/**
 * @param {Fraction} a
 * @param {Fraction} b
 */
function sameFraction(a, b) {
  return a.num * b.den === b.num * a.den;
}
