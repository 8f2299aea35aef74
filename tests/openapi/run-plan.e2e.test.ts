/**
 * `run --plan` as a platform team runs it before the first run against production: the built CLI, the
 * real description (skipped, saying why, where ../shared/ is absent) against the embedded reference's
 * profile. Every one of the 203 operations is listed: each of the 53 reads with the request it would send
 * or why it cannot (a path parameter the profile does not fill), the other 150 with why never called;
 * exit 0. Nothing is sent to any operation (tests/hostile/description-firewall.test.ts proves it with a
 * logging proxy).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/support.js';
import { HAS_REAL_DESCRIPTION, NO_REAL_DESCRIPTION_REASON, REAL_DESCRIPTION_RELATIVE, SMALL_YAML } from './support.js';
import { skipUnless } from '../support/capabilities.js';

describe('run --plan', () => {
  it(`the real description: all 203 operations, the 53 reads with what they send or why not, the 150 others with why`, async (ctx) => {
    skipUnless(ctx, 'real-description', HAS_REAL_DESCRIPTION, NO_REAL_DESCRIPTION_REASON);
    const result = await runCli(['run', '--plan', '--openapi', REAL_DESCRIPTION_RELATIVE]);
    expect(result.code, result.stderr).toBe(0);
    const text = result.stdout;
    const called = Number(/(\d+) called, (\d+) not called\. Nothing was sent/.exec(text)?.[1]);
    const blocks = text.split('\n').filter((line) => /^ {2}(GET|POST|PUT|PATCH|DELETE) /.test(line));
    expect(blocks).toHaveLength(203);
    expect(text).toMatch(/^203 operations: \d+ called, \d+ not called\. Nothing was sent to any of them\.$/m);
    const sends = text.match(/^ {6}sends: (GET|POST) \/api\/v1\/\S+$/gm) ?? [];
    expect(sends).toHaveLength(called);
    // Reads the embedded profile cannot fill: each says which parameter, and how to give it.
    const unfilled = text.match(/^ {6}why: path parameters? \{[^}]+\}.* cannot be filled from the profile/gm) ?? [];
    expect(called + unfilled.length).toBe(53);
    expect(text).toMatch(/POST {3}\/api\/v1\/search\/apps {2}c1\.api\.app\.v1\.AppSearch\.Search\n {6}sends: POST \/api\/v1\/search\/apps\n {6}page size in the JSON body "pageSize"/);
    // The other 150: why never called, each.
    const never = text.match(/^ {6}why: (?!path parameters? \{).*$/gm) ?? [];
    expect(never).toHaveLength(150);
    expect(text).not.toMatch(/\{app_id\}\/entitlements\?/);
  }, 120_000);

  it('--allow-operation: a doubtful POST says how to name it; named, it is called and marked; a changing one cannot be named (exit 2)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ac-plan-'));
    const file = join(dir, 'small.yaml');
    writeFileSync(file, SMALL_YAML);
    const before = await runCli(['run', '--plan', '--openapi', file]);
    expect(before.code, before.stderr).toBe(0);
    expect(before.stdout).toMatch(/POST {3}\/api\/v1\/legacy\/find {2}legacy\.Finder\.Find\n {6}why: .*to call it anyway, name it yourself: run --allow-operation 'POST \/api\/v1\/legacy\/find'/);
    const named = await runCli(['run', '--plan', '--openapi', file, '--allow-operation', 'POST /api/v1/legacy/find']);
    expect(named.code, named.stderr).toBe(0);
    expect(named.stdout).toMatch(/POST {3}\/api\/v1\/legacy\/find {2}legacy\.Finder\.Find {2}\[called because you named it: --allow-operation\]\n {6}sends: POST \/api\/v1\/legacy\/find\n {6}page size in the JSON body "page_size"/);
    const changing = await runCli(['run', '--plan', '--openapi', file, '--allow-operation', 'POST /api/v1/apps']);
    expect(changing.code).toBe(2);
    expect(changing.stderr).toMatch(/error\[USAGE\] at --allow-operation: --allow-operation "POST \/api\/v1\/apps" names POST \/api\/v1\/apps, which the harness never calls/);
  }, 120_000);
});
