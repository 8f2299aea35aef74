/**
 * Typed handles on the k6 scripts' pure modules (load/lib/*.js, plain JavaScript with JSDoc types, not part
 * of the TypeScript project), imported the way Node imports any ES module.
 */
export interface BuiltRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
}

export type HmacBase64Url = (secret: string, input: string) => string;

export interface WebhookLib {
  WEBHOOK_PATH_PREFIX: string;
  webhookPath(listenerId: string): string;
  hmacSignatureInput(timestamp: string, eventId: string, body: string): string;
  webhookTimestamp(epochMs: number): string;
  buildHmacRequest(input: { baseUrl: string; listenerId: string; secret: string; eventId: string; timestamp: string; body: string; hmac: HmacBase64Url }): BuiltRequest;
  hmacRequestBuilder(profile: { baseUrl: string }, listener: { listenerId: string; secret: string }, hmac: HmacBase64Url): (eventId: string, body: string, epochMs: number) => BuiltRequest;
  buildJwtRequest(input: { url: string; eventId: string; timestamp: string; body: string; jwt: string }): BuiltRequest;
}

export interface UuidLib {
  uuidV4FromBytes(random: ArrayBuffer | Uint8Array): string;
}

export interface BodyLib {
  seededRandom(seed: number): () => number;
  makeBody(seed: number, index: number, bytes: number): string;
  makeBodies(seed: number, count: number, bytes: number): string[];
}

export interface ScriptProfile {
  name: string;
  baseUrl: string;
  webhookBaseUrl: string;
  insecureSkipVerify: boolean;
  webhookBodyBytes: number;
  raw: Record<string, unknown>;
}

export interface ProfileLib {
  parseProfile(text: string): ScriptProfile;
  hmacListener(profile: ScriptProfile, env: Record<string, string | undefined>, key?: string): { listenerId: string; secret: string };
  primaryCredential(profile: ScriptProfile, env: Record<string, string | undefined>): { clientId: string; clientSecret: string };
  secretValue(ref: unknown, env: Record<string, string | undefined>, field: string): string;
  profilePath(env: Record<string, string | undefined>): string;
  requireBodyWithinLimit(bodyBytes: number, profile: ScriptProfile): void;
}

export interface TokenLib {
  formEncode(fields: Record<string, string>): string;
  buildTokenRequest(input: { baseUrl: string; clientId: string; clientSecret: string }): BuiltRequest;
  isTokenResponse(text: string | null | undefined): boolean;
}

export interface CorpusCheck {
  ok: boolean;
  reason?: string;
  secondsLeft: number;
  window: string;
}

export interface CorpusLib {
  CORPUS_FORMAT: string;
  CORPUS_MARGIN_SECONDS: number;
  assertCorpus(value: unknown): { url: string; count: number; bodies: string[]; requests: Array<{ eventId: string; body: number; jwt: string }> };
  checkCorpus(corpus: { createdAt: number; notAfter: number; count: number }, run: { now: number; durationSeconds: number; iterations: number; marginSeconds?: number }): CorpusCheck;
  describeWindow(corpus: { createdAt: number; notAfter: number }, now: number): string;
}

export interface LoadConfig {
  rate: number;
  duration: string;
  durationSeconds: number;
  bodyBytes: number;
  preAllocatedVUs: number;
  maxVUs: number;
  p90Ms: number;
  p99Ms: number;
  maxErrorRate: number;
  maxDroppedRatio: number;
  droppedFloor: number;
  vusGiven: boolean;
  segment: Segment | null;
  segmentSequence: string | undefined;
  plannedIterations: number;
  summaryDir: string;
}

export interface Segment {
  text: string;
  start: { num: number; den: number };
  end: { num: number; den: number };
  width: number;
}

export interface SegmentLib {
  parseFraction(text: string): { num: number; den: number };
  parseSegment(text: string): Segment;
  segmentShare(total: number, segment: Segment | null): number;
  segmentMismatch(assumed: Segment | null, running: string | null | undefined): string | undefined;
}

export interface ConfigLib {
  HOT_PATH_DEFAULTS: { rate: number; duration: string; bodyBytes: number };
  PAUSE_HEADROOM_MS: number;
  DEFAULT_DROPPED_FLOOR: number;
  plannedVUs(rate: number, p90Ms: number): { preAllocated: number; max: number };
  readConfig(env: Record<string, string | undefined>, defaults: { rate: number; duration: string; bodyBytes: number }): LoadConfig;
}

export interface DurationLib {
  parseDuration(text: string): number;
  parseStages(text: string): Array<{ duration: string; durationSeconds: number; target: number }>;
  stagesIterations(stages: Array<{ durationSeconds: number; target: number }>, startRate: number): number;
}

export interface OptionsLib {
  scenarioKey(scenario: string): string;
  buildOptions(input: {
    scenario: string;
    config: LoadConfig;
    insecureSkipVerify?: boolean;
    stages?: string;
    keepBodies?: boolean;
    extraThresholds?: Record<string, string[]>;
  }): {
    options: Record<string, unknown> & { scenarios: Record<string, Record<string, unknown>>; thresholds: Record<string, string[]> };
    plannedIterations: number;
    instanceIterations: number;
    droppedBudget: number;
  };
  droppedBudget(instanceIterations: number, config: LoadConfig): number;
}

export interface SummaryMetric {
  type: string;
  contains?: string;
  values: Record<string, number>;
  thresholds?: Record<string, { ok: boolean }>;
}

export interface SummaryData {
  metrics: Record<string, SummaryMetric>;
  root_group?: { name: string; groups?: unknown[]; checks?: Array<{ name: string; passes: number; fails: number }> };
  state?: { testRunDurationMs?: number };
}

export interface JunitLib {
  xmlEscape(text: string): string;
  toJUnit(data: SummaryData, suiteName: string): string;
}

export interface RunPlan {
  plannedIterations: number;
  instanceIterations: number;
  droppedBudget: number;
  segment: string | null;
  runningSegment: string | null;
  warning?: string;
}

export interface SummaryLib {
  runPlan(built: { plannedIterations: number; instanceIterations: number; droppedBudget: number }, config: LoadConfig, running: string | null | undefined): RunPlan;
  textSummary(data: SummaryData, scenario: string, plan?: RunPlan): string;
  summaryOutputs(data: SummaryData, scenario: string, dir: string, plan?: RunPlan): Record<string, string>;
}

export async function k6lib<T>(name: string): Promise<T> {
  return (await import(new URL(`../../../load/lib/${name}.js`, import.meta.url).href)) as T;
}
