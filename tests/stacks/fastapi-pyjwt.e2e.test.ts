/**
 * The FastAPI + pydantic + PyJWT implementation of service.md (fixtures/stacks/fastapi-pyjwt), with that
 * stack's defaults, passes the default run, and the SHOULD checks it fails are exactly those the
 * stack-fastapi variants declare: the harness fails only what the spec forbids, and the variants say what
 * this stack really does (issue 20).
 */
import { fileURLToPath } from 'node:url';
import { startWithProfile } from '../cli/support.js';
import { describeStackRun, probeFails } from './support.js';

// Debian's python3-fastapi, python3-jwt and python3-uvicorn live in the system interpreter, not in a pyenv one.
const PYTHON = '/usr/bin/python3';
const APP = fileURLToPath(new URL('../../fixtures/stacks/fastapi-pyjwt/app.py', import.meta.url));
const MODULES = ['fastapi', 'pydantic', 'jwt', 'uvicorn', 'cryptography'];
const missing = probeFails(PYTHON, [
  '-c',
  `import importlib.util, sys\nm = [n for n in ${JSON.stringify(MODULES)} if importlib.util.find_spec(n) is None]\nprint('missing Python modules: ' + ', '.join(m) + ' (apt install python3-fastapi python3-jwt python3-uvicorn)' if m else '')\nsys.exit(1 if m else 0)`,
]);

describeStackRun('FastAPI + PyJWT stack', 'stack-fastapi', missing === undefined ? undefined : { capability: 'python-stacks', reason: missing }, (_dir, profile) =>
  startWithProfile(PYTHON, [APP, '--profile-out', profile], profile, { label: 'the FastAPI app' }), 300_000);
