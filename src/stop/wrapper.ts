/**
 * The death of the npm / npx wrapper that started this process, by any signal, SIGKILL included.
 *
 * `npx access-conformance serve` (and `npm exec`, an npm script) runs the entry as npm → `sh -c` → node.
 * A SIGKILLed npm sends nothing to anyone, and this process's parent, the shell, lives on, waiting for it:
 * only the shell is reparented (to init or a subreaper), so watching `process.ppid` alone never fires.
 * Nothing else works from Node: npx gives its child no pipe of ours whose end-of-file would say it died
 * (stdin/stdout are the user's terminal or files), and Linux's PR_SET_PDEATHSIG is out of Node's reach and
 * watches the direct parent only. So the chain from this process up to the wrapper (through any shells
 * between) is read once from /proc, and each link is checked on the supervisor's watch tick: a process of
 * the chain gone, or with another parent than it had, means the wrapper is gone. A link is a parent/child
 * pair, not a pid alone: a dead npm that nobody has reaped yet is a zombie whose pid still answers
 * `kill(pid, 0)`, but its children were reparented the moment it died. Without /proc (macOS) only the
 * direct parent is watched.
 *
 * Only when npm started the process (its npm_* variables): started any other way (`exec`,
 * node_modules/.bin, `nohup`, `setsid`), a reparented command keeps running, as asked.
 */
import { readFileSync } from 'node:fs';

/** The shells npm runs a bin through (`script-shell`), passed on the way up to the wrapper. */
const SHELLS = new Set(['sh', 'dash', 'bash', 'zsh', 'ash', 'ksh', 'busybox']);

interface ProcessEntry {
  parent: number;
  name: string;
}

/** /proc/<pid>/stat: "pid (name) state ppid …"; the name may hold spaces and parentheses. */
function entry(pid: number): ProcessEntry | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = stat.lastIndexOf(')');
    const parent = Number(stat.slice(close + 2).split(' ')[1]);
    return Number.isInteger(parent) ? { parent, name: stat.slice(stat.indexOf('(') + 1, close) } : undefined;
  } catch {
    return undefined;
  }
}

/** Whether npm, npx or an npm script started this process. */
export function startedByNpm(env: NodeJS.ProcessEnv): boolean {
  return env.npm_command !== undefined || env.npm_execpath !== undefined || env.npm_lifecycle_event !== undefined;
}

/**
 * Returns a check that says whether the wrapper is gone, or undefined when npm did not start this process.
 * The links: this process → its parent, then each shell → its parent, up to the first process that is not
 * a shell (the wrapper).
 */
export function wrapperWatch(env: NodeJS.ProcessEnv = process.env): (() => boolean) | undefined {
  if (!startedByNpm(env)) return undefined;
  const parent = process.ppid;
  const links: Array<{ pid: number; parent: number }> = [];
  for (let pid = parent, hops = 0; hops < 4; hops += 1) {
    const found = entry(pid);
    if (found === undefined || !SHELLS.has(found.name) || found.parent <= 1) break;
    links.push({ pid, parent: found.parent });
    pid = found.parent;
  }
  return () => process.ppid !== parent || links.some((link) => entry(link.pid)?.parent !== link.parent);
}
