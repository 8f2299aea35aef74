// The pieces of the reference image build and of the network choice that need no Docker engine.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { splitTag } from '../../src/containers/docker-build.js';
import { referenceDockerfile, referenceImageName } from '../../src/containers/reference-image.js';
import { parseLdd, productionPackageDirs } from '../../src/containers/rootfs.js';
import { chooseNetworkMode, jwksListenHostFor } from '../../src/containers/runtime.js';
import { firstFileOfTar, hostsFileAddress } from '../../src/containers/gateway.js';

const LDD_OUTPUT = `	linux-vdso.so.1 (0x00007ffd1a3f2000)
	libdl.so.2 => /lib/x86_64-linux-gnu/libdl.so.2 (0x00007f1d00024000)
	libstdc++.so.6 => /lib/x86_64-linux-gnu/libstdc++.so.6 (0x00007f1cffe00000)
	libc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007f1cffb1e000)
	/lib64/ld-linux-x86-64.so.2 (0x00007f1d0003c000)
`;

describe('parseLdd', () => {
  it('lists every library and the loader, not the vDSO', () => {
    expect(parseLdd(LDD_OUTPUT)).toEqual([
      '/lib/x86_64-linux-gnu/libdl.so.2',
      '/lib/x86_64-linux-gnu/libstdc++.so.6',
      '/lib/x86_64-linux-gnu/libc.so.6',
      '/lib64/ld-linux-x86-64.so.2',
    ]);
  });

  it('refuses output with a missing library (the image would not start)', () => {
    expect(() => parseLdd(`${LDD_OUTPUT}\tlibfoo.so.1 => not found\n`)).toThrow(/libfoo\.so\.1/);
  });
});

describe('productionPackageDirs', () => {
  // Shaped like `npm ls --omit=dev --all --json --long`: "b" lists its dependencies only under the excluded
  // package, and is deduplicated (no dependencies) under the kept one.
  const tree = {
    dependencies: {
      kept: { path: '/p/node_modules/kept', dependencies: { b: { path: '/p/node_modules/b' } } },
      excluded: {
        path: '/p/node_modules/excluded',
        dependencies: {
          b: { path: '/p/node_modules/b', dependencies: { c: { path: '/p/node_modules/c' } } },
          only: { path: '/p/node_modules/only-excluded' },
        },
      },
      nested: {
        path: '/p/node_modules/nested',
        dependencies: { c: { path: '/p/node_modules/nested/node_modules/c' } },
      },
    },
  };

  it('keeps the closure of kept packages, with dependencies learnt from any occurrence', () => {
    expect(productionPackageDirs(tree, ['excluded'])).toEqual([
      '/p/node_modules/b',
      '/p/node_modules/c',
      '/p/node_modules/kept',
      '/p/node_modules/nested',
      '/p/node_modules/nested/node_modules/c',
    ]);
  });

  it('keeps everything when nothing is excluded', () => {
    expect(productionPackageDirs(tree, [])).toContain('/p/node_modules/only-excluded');
  });
});

describe('chooseNetworkMode', () => {
  const linux = { operatingSystem: 'Debian GNU/Linux 12 (bookworm)', operatingSystemType: 'linux' };

  it('uses the host network on a local Linux engine', () => {
    expect(chooseNetworkMode(linux)).toMatchObject({ mode: 'host', reachableHost: '127.0.0.1' });
    expect(chooseNetworkMode({ ...linux, dockerHost: 'unix:///var/run/docker.sock' }).mode).toBe('host');
  });

  it('maps a port when the engine runs in a VM or elsewhere', () => {
    expect(chooseNetworkMode({ operatingSystem: 'Docker Desktop', operatingSystemType: 'linux' }).mode).toBe('bridge');
    expect(chooseNetworkMode({ operatingSystem: 'Windows Server', operatingSystemType: 'windows' }).mode).toBe('bridge');
    expect(chooseNetworkMode({ ...linux, dockerHost: 'tcp://build-box:2375' })).toMatchObject({ mode: 'bridge', reachableHost: 'build-box' });
    expect(chooseNetworkMode({ ...linux, hostOverride: 'docker-host' })).toMatchObject({ mode: 'bridge', reachableHost: 'docker-host' });
  });

  it('follows an explicit request', () => {
    expect(chooseNetworkMode(linux, 'bridge').mode).toBe('bridge');
    expect(chooseNetworkMode({ operatingSystem: 'Docker Desktop', operatingSystemType: 'linux' }, 'host').mode).toBe('host');
  });
});

describe('jwksListenHostFor (bridge: where the harness serves the JWKS)', () => {
  it('listens on the container\'s gateway when it is an address of this machine (docker0)', () => {
    expect(jwksListenHostFor(['172.17.0.1'], ['127.0.0.1', '192.0.2.2', '172.17.0.1'])).toBe('172.17.0.1');
    expect(jwksListenHostFor(['', '172.18.0.1'], ['172.18.0.1'])).toBe('172.18.0.1');
  });

  it('listens on every address when the gateway is not here (an engine in a VM) or unknown', () => {
    expect(jwksListenHostFor(['192.168.65.1'], ['127.0.0.1', '10.0.0.5'])).toBe('0.0.0.0');
    expect(jwksListenHostFor([], ['127.0.0.1'])).toBe('0.0.0.0');
    expect(jwksListenHostFor([''], [''])).toBe('0.0.0.0');
  });
});

describe('reading host.docker.internal from a container (gateway.ts)', () => {
  it('takes the first file out of a tar archive as the engine sends it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ac-tar-'));
    try {
      const text = '127.0.0.1\tlocalhost\n172.17.0.1\thost.docker.internal\n';
      writeFileSync(join(dir, 'hosts'), text);
      const archive = execFileSync('tar', ['-C', dir, '-cf', '-', 'hosts']);
      expect(firstFileOfTar(archive)?.toString('utf8')).toBe(text);
      expect(firstFileOfTar(archive.subarray(0, 100))).toBeUndefined();
      expect(firstFileOfTar(archive.subarray(0, 512))).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('finds the address of a name in a hosts file', () => {
    const hosts = '# comment host.docker.internal\n127.0.0.1 localhost\n\n192.168.65.254   host.docker.internal gateway.docker.internal # Docker\n10.0.0.1 host.docker.internal\n';
    expect(hostsFileAddress(hosts, 'host.docker.internal')).toBe('192.168.65.254');
    expect(hostsFileAddress(hosts, 'gateway.docker.internal')).toBe('192.168.65.254');
    expect(hostsFileAddress(hosts, 'docker.internal')).toBeUndefined();
    expect(hostsFileAddress('', 'localhost')).toBeUndefined();
  });
});

describe('reference image definition', () => {
  it('is built from scratch and starts the contract entrypoint', () => {
    const dockerfile = referenceDockerfile(['/lib/x86_64-linux-gnu', '/lib64'], '1.2.3');
    expect(dockerfile).toMatch(/^FROM scratch$/m);
    expect(dockerfile).toMatch(/^ADD rootfs\.tar \/$/m);
    expect(dockerfile).toContain('LD_LIBRARY_PATH=/lib/x86_64-linux-gnu:/lib64');
    expect(dockerfile).toContain('ENTRYPOINT ["/usr/local/bin/node", "/app/dist/src/image/entrypoint.js"]');
    expect(dockerfile).not.toMatch(/^FROM (?!scratch)/m);
  });

  it('is named after the package version', () => {
    expect(referenceImageName('9.8.7')).toBe('access-conformance-reference:9.8.7');
  });

  it('splits tags without taking a registry port for one', () => {
    expect(splitTag('name:1.0')).toEqual(['name', '1.0']);
    expect(splitTag('host:5000/name')).toEqual(['host:5000/name', 'latest']);
    expect(splitTag('host:5000/name:2')).toEqual(['host:5000/name', '2']);
  });
});
