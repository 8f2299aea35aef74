/**
 * The rooms of src/ and what each may import (docs/architecture.md): a lower room never reaches into a
 * higher one, each third-party library is imported by one room only, and no import circle exists, not even
 * through a type-only or a lazy import. A new
 * edge that breaks a rule fails here with the file that added it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { packageRoot } from '../../src/package.js';
import { moduleCycles, readImportGraph, roomOf } from './import-graph.js';

/** Room → the rooms its modules may import values from. Order: lowest room first. */
const MAY_IMPORT: Record<string, readonly string[]> = {
  errors: [],
  defaults: [],
  'spec-numbers': [],
  debug: [],
  escape: [],
  spelling: [],
  'json-duplicates': [],
  values: ['errors'],
  'output-file': ['errors'],
  package: [],
  requirements: [],
  data: [],
  crypto: ['errors', 'spec-numbers', 'json-duplicates'],
  profile: ['crypto', 'stop', 'errors', 'spelling', 'spec-numbers'],
  openapi: ['profile', 'errors', 'json-duplicates'],
  client: ['crypto', 'profile', 'openapi', 'stop', 'data', 'errors', 'defaults'],
  reference: ['crypto', 'spec-numbers'],
  tenant: ['reference', 'crypto', 'profile', 'data', 'errors', 'defaults', 'spec-numbers'],
  state: ['reference', 'tenant', 'output-file', 'errors', 'spec-numbers'],
  faults: ['reference', 'tenant', 'crypto', 'requirements', 'spec-numbers'],
  sandbox: ['reference', 'tenant', 'crypto', 'spec-numbers', 'errors', 'escape'],
  variants: ['faults', 'reference', 'tenant', 'crypto', 'requirements', 'spec-numbers'],
  stop: ['errors', 'values', 'debug', 'package', 'output-file'],
  engine: ['client', 'profile', 'openapi', 'requirements', 'stop', 'values', 'errors', 'package', 'defaults', 'debug', 'spelling'],
  reporters: ['engine', 'client', 'profile', 'requirements', 'escape', 'output-file', 'errors', 'package', 'defaults'],
  mutation: ['faults', 'variants', 'engine', 'reporters', 'tenant', 'client', 'profile', 'requirements', 'stop', 'errors', 'package', 'defaults'],
  load: ['client', 'crypto', 'profile', 'tenant', 'stop', 'escape', 'values', 'output-file', 'errors', 'package', 'defaults', 'spec-numbers'],
  image: ['faults', 'tenant', 'errors'],
  containers: ['image', 'profile', 'client', 'stop', 'errors', 'package'],
  attest: ['requirements', 'openapi', 'profile', 'errors', 'package'],
  cli: ['attest', 'containers', 'load', 'mutation', 'reporters', 'engine', 'stop', 'faults', 'variants', 'state', 'sandbox', 'tenant', 'client', 'openapi', 'profile', 'crypto', 'requirements', 'data', 'escape', 'values', 'output-file', 'errors', 'package', 'defaults', 'debug', 'spelling', 'spec-numbers'],
  action: ['errors', 'values'],
  index: ['client', 'crypto', 'profile', 'requirements', 'errors'],
};

/** Type-only imports that go against the order, each with the reason it is allowed. */
const TYPE_EXCEPTIONS: Record<string, readonly string[]> = {};

/**
 * Modules that import nothing of src/, so a room below theirs may import them without closing a circle of
 * rooms; each with its reason (the test below holds them to importing nothing).
 */
const LEAF_MODULES: Record<string, string> = {
  'src/stop/within.ts':
    "the one race of work against a time bound (issue 46): output-file.ts bounds its writes with it, and the stop room writes its last report through output-file.ts",
};

/** Each library and the one room that imports it. */
const LIBRARY_ROOM: Record<string, string> = {
  undici: 'client',
  jose: 'crypto',
  '@peculiar/x509': 'crypto',
  'reflect-metadata': 'crypto',
  testcontainers: 'containers',
  yargs: 'cli',
  vitest: 'engine',
  '@faker-js/faker': 'data',
  ajv: 'profile',
  'ajv-formats': 'profile',
  'hdr-histogram-js': 'load',
  'prom-client': 'load',
  yaml: 'openapi',
  'classic-level': 'state',
  sigstore: 'attest',
  '@sigstore/sign': 'attest',
  '@sigstore/verify': 'attest',
  '@sigstore/bundle': 'attest',
  '@sigstore/protobuf-specs': 'attest',
};

const edges = readImportGraph(packageRoot());

describe('architecture: rooms of src/', () => {
  test('every room is in the table', () => {
    const rooms = new Set(edges.map((edge) => roomOf(edge.from)));
    expect([...rooms].filter((room) => !(room in MAY_IMPORT)).sort()).toEqual([]);
  });

  test('the table itself is an order (no room reaches back to a room that reaches it)', () => {
    const reaches = (from: string, to: string, seen = new Set<string>()): boolean =>
      (MAY_IMPORT[from] ?? []).some((next) => next === to || (!seen.has(next) && (seen.add(next), reaches(next, to, seen))));
    expect(Object.keys(MAY_IMPORT).filter((room) => reaches(room, room))).toEqual([]);
  });

  test('no module imports from a room its room may not import', () => {
    const wrong = edges
      .filter((edge) => edge.to.startsWith('src/'))
      .filter((edge) => {
        const from = roomOf(edge.from);
        const to = roomOf(edge.to);
        if (from === to || (MAY_IMPORT[from] ?? []).includes(to) || edge.to in LEAF_MODULES) return false;
        return !(edge.typeOnly && (TYPE_EXCEPTIONS[from] ?? []).includes(to));
      })
      .map((edge) => `${edge.from} → ${edge.to}${edge.typeOnly ? ' (type)' : ''}`);
    expect(wrong).toEqual([]);
  });

  test('a leaf module imports nothing of src/', () => {
    expect(edges.filter((edge) => edge.from in LEAF_MODULES && edge.to.startsWith('src/')).map((edge) => `${edge.from} → ${edge.to}`)).toEqual([]);
    expect(Object.keys(LEAF_MODULES).filter((path) => !edges.some((edge) => edge.to === path))).toEqual([]);
  });

  test('each library is imported by its one room', () => {
    const wrong = edges
      .filter((edge) => edge.to in LIBRARY_ROOM && roomOf(edge.from) !== LIBRARY_ROOM[edge.to])
      .map((edge) => `${edge.from} imports ${edge.to} (owned by src/${LIBRARY_ROOM[edge.to]})`);
    expect(wrong).toEqual([]);
  });

  test('the suites never import the spec\'s numbers (they keep their own literals, an independent reading)', () => {
    const dir = join(packageRoot(), 'suites');
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'));
    expect(files.filter((file) => /from '[^']*spec-numbers(\.js)?'/.test(readFileSync(join(dir, file), 'utf8')))).toEqual([]);
  });

  test('no import circle among modules, type-only and lazy imports counted (src/, suites/, scripts/, bench/)', () => {
    const all = readImportGraph(packageRoot(), ['src', 'suites', 'scripts', 'bench']);
    expect(moduleCycles(all).map((cycle) => cycle.join(' → '))).toEqual([]);
  });
});
