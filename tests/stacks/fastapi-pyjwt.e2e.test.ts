/**
 * The FastAPI + pydantic + PyJWT implementation of service.md (fixtures/stacks/fastapi-pyjwt), with that
 * stack's defaults, passes the default run, and the SHOULD checks it fails are exactly those the
 * stack-fastapi variants declare: the harness fails only what the spec forbids, and the variants say what
 * this stack really does (issue 20).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRequirements } from '../../src/requirements.js';
import { stackSubject } from '../../src/mutation/verify-variants.js';
import { getStack } from '../../src/variants/index.js';
import { runCli, startWithProfile, type CliResult, type StartedProcess } from '../cli/support.js';
import { probeFails } from './support.js';

// Debian's python3-fastapi, python3-jwt and python3-uvicorn live in the system interpreter, not in a pyenv one.
const PYTHON = '/usr/bin/python3';
const APP = fileURLToPath(new URL('../../fixtures/stacks/fastapi-pyjwt/app.py', import.meta.url));
const MODULES = ['fastapi', 'pydantic', 'jwt', 'uvicorn', 'cryptography'];
const missing = probeFails(PYTHON, [
  '-c',
  `import importlib.util, sys\nm = [n for n in ${JSON.stringify(MODULES)} if importlib.util.find_spec(n) is None]\nprint('missing Python modules: ' + ', '.join(m) + ' (apt install python3-fastapi python3-jwt python3-uvicorn)' if m else '')\nsys.exit(1 if m else 0)`,
]);

interface ReportResult {
  id: string;
  level: 'MUST' | 'SHOULD' | 'INFO';
  state: string;
  failure?: { message: string };
}

describe.skipIf(missing !== undefined)(`FastAPI + PyJWT stack${missing ? ` (SKIPPED: ${missing})` : ''}`, () => {
  const dir = mkdtempSync(join(tmpdir(), 'ac-stack-fastapi-'));
  const profile = join(dir, 'fastapi.target.json');
  let stack: StartedProcess | undefined;
  let run: CliResult;
  let results: ReportResult[] = [];

  beforeAll(async () => {
    stack = await startWithProfile(PYTHON, [APP, '--profile-out', profile], profile, { label: 'the FastAPI app' });
    run = await runCli(['run', '--profile', profile, '--reporter', 'json', '--out', join(dir, 'reports')], { timeoutMs: 240_000 });
    results = (JSON.parse(readFileSync(join(dir, 'reports', 'report.json'), 'utf8')) as { results: ReportResult[] }).results;
  }, 300_000);

  afterAll(async () => {
    await stack?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('passes the default run: exit 0, every MUST check passed', () => {
    const notPassed = results.filter((result) => result.level === 'MUST' && result.state !== 'passed');
    expect(notPassed.map((result) => `${result.id} ${result.state}: ${result.failure?.message ?? ''}`), stack?.output()).toEqual([]);
    expect(results.filter((result) => result.level === 'MUST').length).toBe(allRequirements().filter((req) => req.level === 'MUST').length);
    expect(run.code, run.stdout.slice(-2000) + run.stderr).toBe(0);
  });

  it('fails exactly the SHOULD checks the stack-fastapi variants declare (what --strict fails)', () => {
    const failed = results.filter((result) => result.level === 'SHOULD' && result.state !== 'passed').map((result) => result.id);
    expect(failed.sort()).toEqual([...stackSubject(getStack('stack-fastapi')!).warns].sort());
  });
});
