/**
 * A root filesystem for the reference image, assembled from this machine: no base image, so no registry.
 * It holds the running node binary, the shared libraries `ldd` says it needs (and the dynamic loader), a few
 * /etc files, and under /app the package's compiled code, schemas and the production dependencies the
 * reference needs.
 *
 * Production dependencies: the closure of package.json's dependencies per `npm ls --omit=dev`, minus the
 * packages only the harness side uses (the test runner, testcontainers, the CLI parser) and whatever only
 * they pull in. The image runs src/image/entrypoint.ts, which loads none of them; the container tests
 * catch it if that ever changes.
 */
import { execFile } from 'node:child_process';
import { chmod, copyFile, cp, mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { promisify } from 'node:util';
import { HarnessError } from '../errors.js';

const run = promisify(execFile);

/** Runtime dependencies the image never loads (they serve `run`, `--image` and the CLI). */
export const IMAGE_EXCLUDED_DEPENDENCIES: readonly string[] = ['vitest', 'testcontainers', 'yargs'];

/** Where the node binary goes in the image. */
export const IMAGE_NODE_PATH = '/usr/local/bin/node';
/** Where the package goes in the image. */
export const IMAGE_APP_DIR = '/app';

/**
 * The absolute paths of the libraries in `ldd` output, loader included. The vDSO (no file) is skipped;
 * a "not found" library is an error, since the image would not start.
 */
export function parseLdd(output: string): string[] {
  const paths: string[] = [];
  for (const raw of output.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('linux-vdso') || line.startsWith('linux-gate')) continue;
    if (/=>\s*not found/.test(line)) throw new Error(`ldd: a library is missing: ${line}`);
    const arrow = /=>\s*(\/\S+)/.exec(line);
    if (arrow) {
      paths.push(arrow[1]);
      continue;
    }
    // The loader (and statically named libraries) appear as "/lib64/ld-linux-x86-64.so.2 (0x...)".
    const direct = /^(\/\S+)/.exec(line);
    if (direct) paths.push(direct[1]);
  }
  return [...new Set(paths)];
}

interface NpmTreeNode {
  path?: string;
  dependencies?: Record<string, NpmTreeNode>;
}

/** Package folders (absolute) of the production closure, minus `excluded` top-level dependencies. */
export function productionPackageDirs(tree: NpmTreeNode, excluded: readonly string[] = IMAGE_EXCLUDED_DEPENDENCIES): string[] {
  // npm prints a package's dependencies at one of its occurrences only (the others are "deduped", possibly
  // under a package we exclude): first gather, for every folder, the folders it depends on, from the
  // whole tree; then walk that graph from the kept top-level dependencies.
  const edges = new Map<string, Set<string>>();
  const gather = (node: NpmTreeNode, from: string | undefined): void => {
    for (const child of Object.values(node.dependencies ?? {})) {
      // A missing path is a package npm could not find (an optional one for another platform, say).
      if (child.path === undefined) continue;
      if (from !== undefined) edges.get(from)?.add(child.path);
      const known = edges.has(child.path);
      if (!known) edges.set(child.path, new Set());
      if (child.dependencies !== undefined) gather(child, child.path);
    }
  };
  gather(tree, undefined);
  const skip = new Set(excluded);
  const pending = Object.entries(tree.dependencies ?? {})
    .filter(([name, child]) => !skip.has(name) && child.path !== undefined)
    .map(([, child]) => child.path as string);
  const found = new Set<string>();
  while (pending.length > 0) {
    const path = pending.pop() as string;
    if (found.has(path)) continue;
    found.add(path);
    for (const next of edges.get(path) ?? []) if (!found.has(next)) pending.push(next);
  }
  return [...found].sort();
}

async function npmProductionTree(packageRoot: string): Promise<NpmTreeNode> {
  let stdout: string;
  try {
    ({ stdout } = await run('npm', ['ls', '--omit=dev', '--all', '--json', '--long'], {
      cwd: packageRoot,
      maxBuffer: 64 * 1024 * 1024,
    }));
  } catch (error) {
    // npm ls exits non-zero on a problem it still reports in its JSON (e.g. an extraneous package).
    stdout = (error as { stdout?: string }).stdout ?? '';
    if (stdout === '') {
      throw new HarnessError('IMAGE_BUILD_FAILED', `\`npm ls --omit=dev\` failed in ${packageRoot}`, {
        hint: 'run `npm ci` first; the image is built from the installed node_modules',
        cause: error,
      });
    }
  }
  return JSON.parse(stdout) as NpmTreeNode;
}

export interface RootfsOptions {
  packageRoot: string;
  rootfsDir: string;
  /** The node binary to ship; default the running one. */
  nodeBinary?: string;
}

export interface RootfsSummary {
  /** Folders holding the copied libraries (the image's LD_LIBRARY_PATH). */
  libraryDirs: string[];
  packages: number;
}

export async function assembleRootfs(options: RootfsOptions): Promise<RootfsSummary> {
  const { packageRoot, rootfsDir } = options;
  const nodeBinary = options.nodeBinary ?? process.execPath;
  const entrypoint = join(packageRoot, 'dist', 'src', 'image', 'entrypoint.js');
  if (!(await exists(entrypoint))) {
    throw new HarnessError('IMAGE_BUILD_FAILED', `${relative(packageRoot, entrypoint)} is missing`, { hint: 'run `npm run build` first' });
  }

  // node and its libraries, each library at the path the loader found it.
  await copyInto(rootfsDir, nodeBinary, IMAGE_NODE_PATH, 0o755);
  const { stdout } = await run('ldd', [nodeBinary]).catch((error: unknown) => {
    throw new HarnessError('IMAGE_BUILD_FAILED', `ldd ${nodeBinary} failed; the reference image is built on Linux with glibc`, { cause: error });
  });
  const libraries = parseLdd(stdout);
  for (const library of libraries) await copyInto(rootfsDir, library, library, 0o755);

  // The few /etc files a process expects; glibc 2.34+ resolves hosts from /etc/hosts without NSS modules.
  await writeInto(rootfsDir, '/etc/passwd', 'root:x:0:0:root:/root:/sbin/nologin\nnode:x:1000:1000:node:/home/node:/sbin/nologin\n');
  await writeInto(rootfsDir, '/etc/group', 'root:x:0:\nnode:x:1000:\n');
  await writeInto(rootfsDir, '/etc/nsswitch.conf', 'hosts: files dns\n');
  for (const dir of ['/tmp', '/home/node', '/root']) await mkdir(join(rootfsDir, dir), { recursive: true });
  await chmod(join(rootfsDir, 'tmp'), 0o1777);

  // The package: compiled sources (no declarations or maps), schemas, fixtures, package.json ("type": "module").
  const app = join(rootfsDir, IMAGE_APP_DIR);
  await copyInto(rootfsDir, join(packageRoot, 'package.json'), `${IMAGE_APP_DIR}/package.json`, 0o644);
  await cp(join(packageRoot, 'dist', 'src'), join(app, 'dist', 'src'), {
    recursive: true,
    filter: (source) => !/\.(d\.ts|map)$/.test(source),
  });
  for (const folder of ['schemas', 'fixtures']) {
    if (await exists(join(packageRoot, folder))) await cp(join(packageRoot, folder), join(app, folder), { recursive: true });
  }

  const packages = productionPackageDirs(await npmProductionTree(packageRoot));
  for (const dir of packages) {
    const target = join(app, relative(packageRoot, dir));
    // Nested node_modules are copied as packages of their own (when in the closure), not wholesale.
    const nested = `${dir}${sep}node_modules`;
    await cp(dir, target, {
      recursive: true,
      dereference: true,
      filter: (source) => source !== nested && !source.startsWith(`${nested}${sep}`),
    });
  }

  return { libraryDirs: [...new Set(libraries.map((library) => dirname(library)))], packages: packages.length };
}

async function copyInto(rootfsDir: string, source: string, target: string, mode: number): Promise<void> {
  const destination = join(rootfsDir, target);
  await mkdir(dirname(destination), { recursive: true });
  // copyFile follows symlinks: libc.so.6 and friends are often links to versioned files.
  await copyFile(source, destination);
  await chmod(destination, mode);
}

async function writeInto(rootfsDir: string, target: string, content: string): Promise<void> {
  const destination = join(rootfsDir, target);
  await mkdir(dirname(destination), { recursive: true });
  await writeFile(destination, content, { mode: 0o644 });
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** Total size in bytes of a folder, for the build summary. */
export async function folderBytes(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += (await stat(join(entry.parentPath, entry.name))).size;
  }
  return total;
}
