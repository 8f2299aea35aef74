/**
 * Issue 39: `npx access-conformance serve --state-dir DIR`, its npx SIGKILLed. npm runs the bin through
 * `sh -c`, and the shell outlives the kill, so a supervisor that watched only its parent kept serving,
 * holding the port and DIR's lock (STATE_DIR_LOCKED on the next start, the orphan still there 40 s later).
 * Here, from a linked install in a scratch project (node_modules/access-conformance → this checkout, its
 * bin in node_modules/.bin, as `npm install` lays it out), the real npx starts serve; once it serves, npx is
 * SIGKILLed: within 2 s every process it started is gone and the port refuses connections, and a second
 * serve on the same state folder starts (no STATE_DIR_LOCKED).
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { assertBuilt, cleanEnv, ROOT, startServe } from '../cli/support.js';
import { skipUnless } from '../support/capabilities.js';

let dir: string;
let project: string;
beforeAll(async () => {
  assertBuilt();
  dir = await mkdtemp(join(tmpdir(), 'ac-wrapper-death-'));
  project = join(dir, 'project');
  await mkdir(join(project, 'node_modules', '.bin'), { recursive: true });
  await writeFile(join(project, 'package.json'), '{"name":"scratch","private":true}\n');
  await symlink(ROOT, join(project, 'node_modules', 'access-conformance'), 'dir');
  await symlink('../access-conformance/bin/access-conformance.js', join(project, 'node_modules', '.bin', 'access-conformance'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Every process below `root` (Linux /proc), read before the kill: afterwards they are no longer below it. */
function descendants(root: number): number[] {
  const parents = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      parents.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // Ended while listed.
    }
  }
  const found: number[] = [];
  const walk = (pid: number): void => {
    for (const [child, parent] of parents) if (parent === pid) (found.push(child), walk(child));
  };
  walk(root);
  return found;
}

function alive(pid: number): boolean {
  try {
    // A zombie still answers kill(0): count it as gone (it holds no port and no lock).
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

function portRefuses(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => (socket.destroy(), resolve(false)));
    socket.once('error', () => resolve(true));
  });
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

it('SIGKILL of the npx wrapper frees the port and the state lock within 2 s', async (ctx) => {
  skipUnless(ctx, 'linux', process.platform === 'linux', 'the wrapper watch reads /proc');
  const state = join(dir, 'state');
  const profile = join(dir, 'first.target.json');
  // Without the npm_* variables of the npx that started vitest: npx sets its own, as for a user.
  const env = Object.fromEntries(Object.entries(cleanEnv()).filter(([name]) => !name.startsWith('npm_')));
  const npx = spawn('npx', ['--no-install', 'access-conformance', 'serve', '--state-dir', state, '--port', '0', '--profile-out', profile], { cwd: project, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  npx.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  let orphans: number[] = [];
  try {
    const startBy = Date.now() + 90_000;
    while (!existsSync(profile)) {
      if (Date.now() > startBy || npx.exitCode !== null) throw new Error(`serve wrote no profile:\n${stderr}`);
      await sleep(100);
    }
    const port = Number(new URL((JSON.parse(readFileSync(profile, 'utf8')) as { baseUrl: string }).baseUrl).port);
    expect(await portRefuses(port)).toBe(false);
    orphans = descendants(npx.pid!);
    // npm → sh -c → the entry (the supervisor) → the command: at least the last two are node.
    expect(orphans.length, 'the processes npx started').toBeGreaterThanOrEqual(2);

    const killedAt = Date.now();
    npx.kill('SIGKILL');
    while ((orphans.some(alive) || !(await portRefuses(port))) && Date.now() - killedAt < 10_000) await sleep(50);
    const tookMs = Date.now() - killedAt;
    expect(orphans.filter(alive), `still running ${tookMs} ms after the kill`).toEqual([]);
    expect(tookMs, 'port and processes freed after the wrapper\'s SIGKILL').toBeLessThan(2_000);

    // The lock went with them: a second serve opens the same state folder and serves.
    const second = await startServe(['--state-dir', state, '--port', '0', '--profile-out', join(dir, 'second.target.json')], join(dir, 'second.target.json'));
    try {
      expect(second.output()).not.toContain('STATE_DIR_LOCKED');
    } finally {
      await second.stop();
    }
  } finally {
    for (const pid of orphans.filter(alive)) process.kill(pid, 'SIGKILL');
    if (npx.exitCode === null && npx.signalCode === null) npx.kill('SIGKILL');
  }
}, 150_000);

