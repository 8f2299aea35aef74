/**
 * Descriptions a hostile or careless author can write (issue 41): each is a named OPENAPI_INVALID, never
 * INTERNAL. A defect inside one operation leaves that operation out with the defect as its reason while the
 * others are still planned; a document that cannot be read at all (a repeated JSON key, nesting past the
 * bound) is refused whole. A legitimately recursive schema is not mistaken for a loop.
 */
import { describe, expect, it } from 'vitest';
import { isHarnessError } from '../../src/errors.js';
import { firstDuplicateMember } from '../../src/json-duplicates.js';
import { describeText, MAX_DESCRIPTION_DEPTH } from '../../src/openapi/index.js';
import { harnessError } from './support.js';

const LIST_GET = {
  get: {
    operationId: 'c1.api.app.v1.Apps.List',
    parameters: [
      { in: 'query', name: 'page_size', schema: { type: 'integer' } },
      { in: 'query', name: 'page_token', schema: { type: 'string' } },
    ],
    responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object', properties: { list: { type: 'array' } } } } } } },
  },
};

/** A search whose 200 answer is `schema`, beside a healthy GET list. */
function withSearchAnswer(schema: unknown, schemas: Record<string, unknown> = {}): string {
  return JSON.stringify({
    openapi: '3.1.0',
    info: { title: 'hostile', version: '1' },
    paths: {
      '/api/v1/search/apps': {
        post: {
          operationId: 'c1.api.app.v1.AppSearch.Search',
          requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { pageSize: { type: 'integer' }, pageToken: { type: 'string' } } } } } },
          responses: { '200': { description: 'ok', content: { 'application/json': { schema } } } },
        },
      },
      '/api/v1/apps': LIST_GET,
    },
    components: { schemas },
  });
}

function planOf(text: string) {
  const ops = describeText(text, 'hostile.json').operations;
  return { search: ops.find((op) => op.method === 'POST'), list: ops.find((op) => op.method === 'GET') };
}

describe('a defect inside one operation leaves it out, the rest still planned', () => {
  it('a $ref whose percent-encoding is malformed (%E0%A4%A)', () => {
    const { search, list } = planOf(withSearchAnswer({ $ref: '#/components/schemas/%E0%A4%A' }));
    expect(search?.called).toBe(false);
    expect(search?.reason).toMatch(/malformed \$ref at #\/paths\/~1api~1v1~1search~1apps\/post\/responses\/200\S* .*"%E0%A4%A" is not valid percent-encoding/);
    expect(list?.called).toBe(true);
  });

  it('a $ref with a "~" not followed by 0 or 1 (RFC 6901)', () => {
    const { search } = planOf(withSearchAnswer({ $ref: '#/components/schemas/A~2B' }, { 'A~2B': { type: 'object' } }));
    expect(search?.reason).toMatch(/malformed \$ref .*has a "~" not followed by 0 or 1/);
  });

  it('a schema that applies itself without end, through allOf, anyOf or $ref alone, names the loop', () => {
    const loops: Array<Record<string, unknown>> = [
      { A: { allOf: [{ $ref: '#/components/schemas/B' }] }, B: { allOf: [{ $ref: '#/components/schemas/A' }] } },
      { A: { anyOf: [{ type: 'null' }, { $ref: '#/components/schemas/A' }] } },
      { A: { type: 'object', if: { $ref: '#/components/schemas/B' } }, B: { not: { $ref: '#/components/schemas/A' } } },
    ];
    for (const schemas of loops) {
      const { search, list } = planOf(withSearchAnswer({ $ref: '#/components/schemas/A' }, schemas));
      expect(search?.called, JSON.stringify(schemas)).toBe(false);
      expect(search?.reason).toMatch(/applies itself without end \(#\/components\/schemas\/A → .*#\/components\/schemas\/A\)/);
      expect(list?.called).toBe(true);
    }
  });

  it('a recursive schema that looks deeper each time (a tree) is no loop: the search is called', () => {
    const tree = { Node: { type: 'object', properties: { list: { type: 'array', items: { $ref: '#/components/schemas/Node' } }, parent: { anyOf: [{ type: 'null' }, { $ref: '#/components/schemas/Node' }] } } } };
    const { search } = planOf(withSearchAnswer({ $ref: '#/components/schemas/Node' }, tree));
    expect(search?.called).toBe(true);
    expect(JSON.stringify(search?.responseSchema)).toContain('#/$defs/Node');
  });

  it('20,000 schemas, each allOf the next: left out at the allOf bound, no stack overflow', () => {
    const schemas: Record<string, unknown> = {};
    for (let i = 0; i < 20_000; i += 1) schemas[`S${i}`] = { allOf: [{ $ref: `#/components/schemas/S${i + 1}` }] };
    schemas.S20000 = { type: 'object', properties: { list: { type: 'array' } } };
    const { search, list } = planOf(withSearchAnswer({ $ref: '#/components/schemas/S0' }, schemas));
    expect(search?.reason).toMatch(/nests allOf more than 64 levels deep/);
    expect(list?.called).toBe(true);
  });
});

describe('a document that cannot be read at all is refused whole, naming why', () => {
  it('a repeated key in JSON (JSON.parse would keep the last and an operation would vanish)', () => {
    const text = withSearchAnswer({ type: 'object' }).replace('"paths":{', '"paths":{"/api/v1/apps":{},');
    const error = harnessError(() => describeText(text, 'dup.json'));
    expect(error.code).toBe('OPENAPI_INVALID');
    expect(error.message).toMatch(/repeats the key "\/api\/v1\/apps" in one object \(at line 1, column \d+\)/);
  });

  it('a repeated key spelled with an escape is the same key', () => {
    expect(firstDuplicateMember('{"a":1,\n "\\u0061":2}')).toEqual({ name: 'a', offset: 9 });
    expect(firstDuplicateMember('{"a":{"b":1},"c":{"b":2}}')).toBeUndefined();
  });

  it(`nesting past ${MAX_DESCRIPTION_DEPTH} levels, in JSON or YAML, is refused with where it happens`, () => {
    const deep = `${'{"allOf":['.repeat(20_000)}{}${']}'.repeat(20_000)}`;
    const json = withSearchAnswer({ type: 'object' }).replace('"components":{"schemas":{}}', `"components":{"schemas":{"Deep":${deep}}}`);
    const fromJson = harnessError(() => describeText(json, 'deep.json'));
    expect(fromJson.code).toBe('OPENAPI_INVALID');
    expect(fromJson.message).toMatch(/nests objects and arrays more than 256 levels deep \(at #\/components\/schemas\/Deep\/allOf\/0\/.*more levels\)\)/);
    const yaml = `openapi: 3.1.0\npaths: {}\nx: ${'['.repeat(20_000)}${']'.repeat(20_000)}\n`;
    expect(harnessError(() => describeText(yaml, 'deep.yaml'))).toMatchObject({ code: 'OPENAPI_INVALID', message: expect.stringMatching(/more than 256 levels deep/) });
  });

  it('random damage to a small description is a named error or a plan, never INTERNAL or a bare exception', () => {
    const seed = JSON.parse(withSearchAnswer({ type: 'object', properties: { list: { type: 'array', items: { $ref: '#/components/schemas/AppView' } } } }, { AppView: { type: 'object', properties: { app: { type: 'object' } } } }));
    const junk = [null, 1, 'x', [], {}, true, { $ref: '#/nope' }, { $ref: 5 }, { $ref: '#' }, { $ref: '#/paths' }, { $ref: '#/components/schemas/AppView' }, [1, {}]];
    let state = 7;
    const random = (below: number) => {
      state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
      return Math.floor((state / 2_147_483_648) * below);
    };
    const nodes = (value: unknown, out: Array<Record<string, unknown>> = []): Array<Record<string, unknown>> => {
      if (typeof value === 'object' && value !== null) {
        out.push(value as Record<string, unknown>);
        for (const child of Object.values(value)) nodes(child, out);
      }
      return out;
    };
    let planned = 0;
    for (let trial = 0; trial < 2_000; trial += 1) {
      const doc = structuredClone(seed);
      const all = nodes(doc);
      const target = all[random(all.length)]!;
      const keys = Object.keys(target);
      if (keys.length > 0) target[keys[random(keys.length)]!] = junk[random(junk.length)];
      try {
        describeText(JSON.stringify(doc), 'damaged.json');
        planned += 1;
      } catch (error) {
        expect(isHarnessError(error) && error.code !== 'INTERNAL', String(error)).toBe(true);
      }
    }
    // Most damage spoils one operation or nothing: the document is still planned.
    expect(planned).toBeGreaterThan(1_000);
  });
});
