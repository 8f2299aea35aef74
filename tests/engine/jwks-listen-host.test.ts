/**
 * A container behind a mapped port publishes a JWKS URL under host.docker.internal: a name the harness's
 * machine cannot listen on. `run --image` then hands the engine a listen host (the bridge's gateway, or
 * 0.0.0.0), and the engine's JWKS server must listen there while serving the URL the profile names. This
 * is the engine's side alone, without Docker (tests/containers/docker.test.ts runs the real bridge when an
 * engine is there): the container is simulated in a child process (support/jwks-listen-host-run.ts) whose
 * reference resolves host.docker.internal to 127.0.0.1, the listen host given here.
 */
import { lookup } from 'node:dns/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runChildJson } from './support/child-json.js';
import { skipBecause } from '../support/capabilities.js';

const SCRIPT = fileURLToPath(new URL('../../dist/tests/engine/support/jwks-listen-host-run.js', import.meta.url));

interface Outcome {
  jwksUrl?: string;
  exitCode?: number;
  passed?: number;
  notPassed?: string[];
  error?: string;
}

function runChild(listenHost: string): Promise<Outcome> {
  return runChildJson<Outcome>(SCRIPT, [listenHost]);
}

const gatewayResolvesHere = await lookup('host.docker.internal').then(
  () => true,
  () => false,
);

describe('JWKS listen host (run --image behind a mapped port)', () => {
  it('serves the profile\'s host.docker.internal JWKS URL from the given listen host: every JWT check passes', async () => {
    const outcome = await runChild('127.0.0.1');
    expect(outcome.error).toBeUndefined();
    expect(outcome.jwksUrl).toMatch(/^https:\/\/host\.docker\.internal:\d+\/jwks\.json$/);
    expect(outcome.notPassed).toEqual([]);
    expect(outcome.passed).toBeGreaterThan(20);
    expect(outcome.exitCode).toBe(0);
  }, 160_000);

  // On a machine whose hosts file names host.docker.internal (Docker Desktop adds it) the URL's own host
  // can be bound, and there is nothing to show.
  it('without it, the engine cannot listen on the URL\'s host: JWKS_SERVER (exit 2)', async (ctx) => {
    if (gatewayResolvesHere) skipBecause(ctx, 'this machine\'s hosts file names host.docker.internal (Docker Desktop adds it): the URL\'s own host can be bound, nothing to show');
    const outcome = await runChild('none');
    expect(outcome.error).toBe('JWKS_SERVER');
  }, 60_000);
});
