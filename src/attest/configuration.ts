/**
 * The predicate's `configuration`: in-toto ResourceDescriptors, each with a SHA-256 digest, for what decided
 * the verdict besides the target: the requirement catalogue (its version and the digest of its canonical
 * form), the target profile as used (secrets removed before hashing), the OpenAPI description the run read,
 * the spec and rulings the catalogue quotes, the harness (package, version, and a digest of its built
 * files), and the options that change a verdict (--strict, --only, --skip, --partial, --baseline).
 */
import { readdir, readFile } from 'node:fs/promises';
import { basename, join, relative, sep } from 'node:path';
import { displaySource } from '../openapi/index.js';
import { packageRoot, toolVersion, TOOL_NAME } from '../package.js';
import type { ResolvedProfile } from '../profile/types.js';
import { allRequirements, CATALOGUE_VERSION } from '../requirements/catalogue.js';
import { canonicalDigest, canonicalJson, sha256Hex } from './canonical.js';

/** in-toto's ResourceDescriptor (spec/v1/resource_descriptor.md), the fields used here. */
export interface ResourceDescriptor {
  name?: string;
  uri?: string;
  digest?: Record<string, string>;
  downloadLocation?: string;
  mediaType?: string;
  annotations?: Record<string, unknown>;
}

/** The catalogue's canonical form: what `access-conformance list --format json` prints, as RFC 8785 JSON. */
export function catalogueDocument(): { catalogueVersion: string; requirements: unknown[] } {
  return { catalogueVersion: CATALOGUE_VERSION, requirements: allRequirements() };
}

export function catalogueDescriptor(): ResourceDescriptor {
  const doc = catalogueDocument();
  return {
    name: 'catalogue',
    uri: `pkg:npm/${TOOL_NAME}@${toolVersion()}#catalogue`,
    digest: { sha256: canonicalDigest(doc) },
    mediaType: 'application/json',
    annotations: { version: CATALOGUE_VERSION, requirements: doc.requirements.length, canonicalForm: 'RFC 8785 JSON of `access-conformance list --format json`' },
  };
}

/** Profile fields that hold a secret or a private key part, wherever they stand. */
const SECRET_FIELDS = new Set(['clientSecret', 'secret', 'token', 'tlsKey', 'd', 'p', 'q', 'dp', 'dq', 'qi', 'k']);
export const REMOVED = '[removed]';

/**
 * The profile as the run used it (defaults applied, files read, --openapi in place), with every secret
 * replaced by `[removed]`: by field name, and any other string that holds one of the profile's secret
 * values, and the description's URL without its userinfo, query and fragment. The list of secrets itself goes. This is the document that is hashed and written beside the
 * attestation for publishing.
 */
export function profileWithoutSecrets(profile: ResolvedProfile): unknown {
  const secrets = profile.secrets.filter((value) => value.length >= 4);
  const clean = (value: unknown, key?: string): unknown => {
    if (key !== undefined && SECRET_FIELDS.has(key) && value !== undefined && value !== null) return REMOVED;
    // A description URL may carry a credential (userinfo, `?token=`): published as the reports show it.
    if (key === 'openapi' && typeof value === 'string') return displaySource(value);
    if (typeof value === 'string') return secrets.some((secret) => value.includes(secret)) ? REMOVED : value;
    if (Array.isArray(value)) return value.map((item) => clean(item));
    if (typeof value === 'object' && value !== null) {
      return Object.fromEntries(Object.entries(value).filter(([name]) => name !== 'secrets').map(([name, item]) => [name, clean(item, name)]));
    }
    return value;
  };
  return clean(profile);
}

export function profileDescriptor(withoutSecrets: unknown, profile: ResolvedProfile, file: string): ResourceDescriptor {
  return {
    name: 'target profile',
    digest: { sha256: canonicalDigest(withoutSecrets) },
    mediaType: 'application/json',
    annotations: { profile: profile.name, baseUrl: profile.baseUrl, secretsRemoved: true, file, canonicalForm: 'RFC 8785 JSON of the file' },
  };
}

/** The description the run read, as report.json's header names it (source and digest). */
export function descriptionDescriptor(description: { source: string; sha256?: string; openapi?: string } | undefined): ResourceDescriptor | undefined {
  if (description?.sha256 === undefined) return undefined;
  const isUrl = /^https?:\/\//i.test(description.source);
  const annotations = { ...(isUrl ? {} : { file: basename(description.source) }), ...(description.openapi === undefined ? {} : { openapi: description.openapi }) };
  return {
    name: 'openapi description',
    ...(isUrl ? { uri: description.source } : {}),
    digest: { sha256: description.sha256 },
    ...(Object.keys(annotations).length === 0 ? {} : { annotations }),
  };
}

/** service.md and rulings.md as the package ships them (spec/): the authority the catalogue quotes. */
export async function specDescriptors(): Promise<ResourceDescriptor[]> {
  return Promise.all(
    ['service.md', 'rulings.md'].map(async (file) => ({
      name: `spec/${file}`,
      digest: { sha256: sha256Hex(await readFile(join(packageRoot(), 'spec', file))) },
      mediaType: 'text/markdown',
    })),
  );
}

/**
 * The harness: its npm package URL and version, and a digest of the code that ran, the package's built
 * JavaScript (dist/src and dist/suites, *.js): one `path NUL sha256 LF` line per file, sorted, hashed.
 * The files are read a batch at a time (about 900 of them; one by one took up to a second).
 */
export async function harnessDescriptor(): Promise<ResourceDescriptor> {
  const root = packageRoot();
  const paths: string[] = [];
  for (const dir of ['dist/src', 'dist/suites']) {
    const entries = await readdir(join(root, dir), { recursive: true, withFileTypes: true }).catch(() => []);
    for (const entry of entries) if (entry.isFile() && entry.name.endsWith('.js')) paths.push(join(entry.parentPath, entry.name));
  }
  const lines: string[] = [];
  for (let start = 0; start < paths.length; start += HASH_BATCH) {
    const batch = paths.slice(start, start + HASH_BATCH);
    const hashes = await Promise.all(batch.map(async (path) => sha256Hex(await readFile(path))));
    batch.forEach((path, index) => lines.push(`${relative(root, path).split(sep).join('/')}\0${hashes[index]!}\n`));
  }
  lines.sort();
  return {
    name: TOOL_NAME,
    uri: `pkg:npm/${TOOL_NAME}@${toolVersion()}`,
    ...(lines.length === 0 ? {} : { digest: { sha256: sha256Hex(lines.join('')) } }),
    annotations: {
      version: toolVersion(),
      node: process.version,
      ...(lines.length === 0 ? {} : { digestOf: `${lines.length} JavaScript files of dist/src and dist/suites, one "path NUL sha256 LF" line each, sorted` }),
    },
  };
}

const HASH_BATCH = 64;

/** The options that change a verdict, as given. */
export interface VerdictOptions {
  strict: boolean;
  only: readonly string[];
  skip: readonly string[];
  /** `run --partial` (named only when given, so a whole run's descriptor is as before). */
  partial?: boolean;
  /** The --baseline file's name and its bytes' SHA-256. */
  baseline?: { file: string; sha256: string };
}

export async function baselineFile(path: string): Promise<{ file: string; sha256: string }> {
  return { file: basename(path), sha256: sha256Hex(await readFile(path)) };
}

export function optionsDescriptor(options: VerdictOptions): ResourceDescriptor {
  const value = { strict: options.strict, only: [...options.only], skip: [...options.skip], ...(options.partial ? { partial: true } : {}), baseline: options.baseline ?? null };
  return { name: 'options', digest: { sha256: canonicalDigest(value) }, mediaType: 'application/json', annotations: JSON.parse(canonicalJson(value)) as Record<string, unknown> };
}
