// The pre-signed webhook-JWT corpus that `access-conformance load prepare --scenario webhook-jwt` writes and
// load/webhook-jwt.js replays. k6 cannot sign EdDSA (nor, before newer versions, RS256/ES256), so Node signs
// and k6 only sends. Pure: the script runs these checks in setup(), the tests run them in Node.

export const CORPUS_FORMAT = 'access-conformance/webhook-jwt-corpus';
export const CORPUS_VERSION = 1;
/** Seconds kept in hand past DURATION: k6's gracefulStop (30 s default) plus clock skew. */
export const CORPUS_MARGIN_SECONDS = 35;

/**
 * @typedef {object} CorpusEntry
 * @property {string} eventId `Webhook-Event-Id` and the JWT's `jti`
 * @property {number} body index into `bodies`
 * @property {string} jwt compact JWS
 */

/**
 * @typedef {object} Corpus
 * @property {string} format
 * @property {number} version
 * @property {string} scenario
 * @property {string} alg
 * @property {string} url where to POST (profile baseUrl + listener path)
 * @property {string} listenerId
 * @property {number} createdAt Unix seconds
 * @property {number} notAfter Unix seconds: the earliest `exp` in the corpus
 * @property {number} bodyBytes
 * @property {number} count
 * @property {string[]} bodies
 * @property {CorpusEntry[]} requests
 */

/**
 * @typedef {object} CorpusCheck
 * @property {boolean} ok
 * @property {string} [reason] why the run must not start
 * @property {number} secondsLeft until the first JWT expires
 * @property {string} window human-readable validity window
 */

/**
 * Shape check of a parsed corpus; throws with what is wrong.
 * @param {any} value
 * @returns {Corpus}
 */
export function assertCorpus(value) {
  if (!value || typeof value !== 'object') throw new Error('CORPUS is not a JSON object');
  if (value.format !== CORPUS_FORMAT || value.version !== CORPUS_VERSION) {
    throw new Error('CORPUS is not a ' + CORPUS_FORMAT + ' v' + CORPUS_VERSION + ' file (make one with `access-conformance load prepare`)');
  }
  if (typeof value.url !== 'string' || !/^https?:\/\//.test(value.url)) throw new Error('CORPUS url must be an http(s) URL');
  if (typeof value.notAfter !== 'number' || typeof value.createdAt !== 'number') throw new Error('CORPUS lacks createdAt/notAfter');
  if (!Array.isArray(value.bodies) || !Array.isArray(value.requests)) throw new Error('CORPUS lacks bodies/requests arrays');
  if (value.requests.length !== value.count) {
    throw new Error('CORPUS says count ' + value.count + ' but holds ' + value.requests.length + ' requests');
  }
  for (let i = 0; i < value.requests.length; i++) {
    const entry = value.requests[i];
    if (!entry || typeof entry.eventId !== 'string' || typeof entry.jwt !== 'string' || typeof value.bodies[entry.body] !== 'string') {
      throw new Error('CORPUS request ' + i + ' is malformed');
    }
  }
  return /** @type {Corpus} */ (value);
}

/**
 * @param {number} unixSeconds
 * @returns {string}
 */
function iso(unixSeconds) {
  return new Date(unixSeconds * 1000).toISOString();
}

/**
 * @param {{createdAt: number, notAfter: number}} corpus
 * @param {number} now Unix seconds
 * @returns {string}
 */
export function describeWindow(corpus, now) {
  const left = Math.floor(corpus.notAfter - now);
  return 'signed ' + iso(corpus.createdAt) + ', valid until ' + iso(corpus.notAfter) + ' (' + (left > 0 ? left + ' s left' : 'expired ' + -left + ' s ago') + ')';
}

/**
 * Can this corpus carry a run of `iterations` requests lasting `durationSeconds`, starting `now`?
 * @param {{createdAt: number, notAfter: number, count: number}} corpus
 * @param {{now: number, durationSeconds: number, iterations: number, marginSeconds?: number}} run
 * @returns {CorpusCheck}
 */
export function checkCorpus(corpus, run) {
  const margin = run.marginSeconds === undefined ? CORPUS_MARGIN_SECONDS : run.marginSeconds;
  const secondsLeft = Math.floor(corpus.notAfter - run.now);
  const window = describeWindow(corpus, run.now);
  if (secondsLeft <= 0) {
    return { ok: false, secondsLeft, window, reason: 'the corpus has expired (' + window + '): its JWTs would all get 401. Prepare a new one right before the run.' };
  }
  const needed = Math.ceil(run.durationSeconds + margin);
  if (secondsLeft < needed) {
    return {
      ok: false,
      secondsLeft,
      window,
      reason:
        'the corpus is valid for ' + secondsLeft + ' s more but the run needs ' + needed + ' s (DURATION ' + run.durationSeconds +
        ' s + ' + margin + ' s margin); JWT exp is at most 10 minutes, so prepare it right before the run or shorten DURATION.',
    };
  }
  if (corpus.count < run.iterations) {
    return {
      ok: false,
      secondsLeft,
      window,
      reason:
        'the corpus holds ' + corpus.count + ' requests but the run plans ' + run.iterations + ' (RATE × DURATION); each event ID can be ' +
        'sent only once (a second send is a duplicate, 409), so prepare it with --count ' + run.iterations + ' or more.',
    };
  }
  return { ok: true, secondsLeft, window };
}
