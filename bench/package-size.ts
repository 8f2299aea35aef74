/**
 * `npm run bench -- package`: what `npm pack` would publish, as npm itself counts it (`npm pack --dry-run
 * --json`: the tarball's size, its unpacked size and its file count), so docs/install.md quotes the figures
 * this bench wrote to bench/figures.json rather than a copy by hand. The install's own size and time
 * depend on the registry and the npm cache; tests/package/install.e2e.test.ts prints the time on every run.
 */
import { execFileSync } from 'node:child_process';
import type { Bench } from './registry.js';

interface PackInfo {
  size: number;
  unpackedSize: number;
  entryCount: number;
}

export const packageSizeBench: Bench = {
  name: 'package',
  description: 'The packed package: tarball size, unpacked size and file count (npm pack --dry-run)',
  async run() {
    // --ignore-scripts: `prepare` would compile again; the bench's pre-script built dist/ already.
    const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts', '--loglevel=error'], { encoding: 'utf8', timeout: 120_000 });
    const [info] = JSON.parse(out) as PackInfo[];
    return {
      name: 'package',
      metrics: [
        { label: 'tarball size', value: Number((info!.size / 1e6).toFixed(2)), unit: 'MB' },
        { label: 'unpacked size', value: Number((info!.unpackedSize / 1e6).toFixed(2)), unit: 'MB' },
        { label: 'files', value: info!.entryCount, unit: 'files' },
      ],
      notes: [`npm pack --dry-run of this checkout (dist/ as the build left it), npm ${execFileSync('npm', ['--version'], { encoding: 'utf8' }).trim()}.`],
    };
  },
};
