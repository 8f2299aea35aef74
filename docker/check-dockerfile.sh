#!/usr/bin/env bash
# Builds docker/Dockerfile where no image registry is reachable, and checks the image it makes.
#
# node:20-slim cannot be pulled here, so this script makes a stand-in with the same shape: Debian bookworm
# (debootstrap, minbase, from Debian's package mirror), this machine's node and npm under /usr/local, and a
# user `node` (uid 1000). It then builds docker/Dockerfile on it (`npm ci` reaches the npm registry over the
# host network) and runs `access-conformance run --image` on the result: exit 0 expected.
#
# Needs root (debootstrap, chroot), debootstrap, a running Docker engine, and `npm run build` done.
# Usage: docker/check-dockerfile.sh [report-folder]     (default reports/dockerfile-check)
# Both images it makes are removed at the end; KEEP_IMAGES=1 keeps them.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$root/reports/dockerfile-check}"
version="$(node -p "require('$root/package.json').version")"
base_tag="access-conformance-local/node:20-slim-standin"
image_tag="access-conformance-reference:${version}-dockerfile"
work="$(mktemp -d "${TMPDIR:-/tmp}/access-conformance-dockerfile-XXXXXX")"
images_before="$work/images-before"
cleanup() {
  if [ "${KEEP_IMAGES:-0}" != 1 ] && [ -f "$images_before" ]; then
    docker rmi -f "$image_tag" "$base_tag" >/dev/null 2>&1 || true
    # The legacy builder leaves the build stage and each step as untagged images: remove every image that
    # appeared during this script (and only those), newest first (docker's order) so children go first.
    docker images -aq --no-trunc | awk '!seen[$0]++' | grep -vxF -f "$images_before" | xargs -r docker rmi -f >/dev/null 2>&1 || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

for tool in debootstrap docker chroot tar; do
  command -v "$tool" >/dev/null || { echo "check-dockerfile: $tool is missing (apt-get install debootstrap docker.io)" >&2; exit 2; }
done
[ "$(id -u)" = 0 ] || { echo "check-dockerfile: run as root (debootstrap and chroot need it)" >&2; exit 2; }
docker info >/dev/null 2>&1 || { echo "check-dockerfile: no Docker engine answers (start dockerd)" >&2; exit 2; }
[ -f "$root/dist/src/cli/main.js" ] || { echo "check-dockerfile: run npm run build first" >&2; exit 2; }

docker images -aq --no-trunc | sort -u >"$images_before"
node_bin="$(readlink -f "$(command -v node)")"
npm_dir="$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")"
echo "check-dockerfile: stand-in for node:20-slim: bookworm minbase + node $(node --version) + npm $(npm --version)"
rootfs="$work/rootfs"
debootstrap --variant=minbase bookworm "$rootfs" http://deb.debian.org/debian >"$work/debootstrap.log" 2>&1 ||
  { tail -20 "$work/debootstrap.log" >&2; echo "check-dockerfile: debootstrap failed" >&2; exit 2; }
install -m 0755 "$node_bin" "$rootfs/usr/local/bin/node"
mkdir -p "$rootfs/usr/local/lib/node_modules"
cp -a "$npm_dir" "$rootfs/usr/local/lib/node_modules/npm"
ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
# As in the official image: a user `node` with uid 1000; the apt lists are not kept.
env -i PATH=/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin chroot "$rootfs" /bin/sh -c \
  'groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node && node --version >/dev/null && npm --version >/dev/null'
rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*
changes=(--change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' --change 'CMD ["node"]')
# A machine whose HTTPS goes through an intercepting proxy trusts that proxy through NODE_EXTRA_CA_CERTS;
# `npm ci` inside the build needs the same trust, so the stand-in carries that file (the Dockerfile is
# unchanged: with a real node:20-slim behind such a proxy, a user adds their CA the same way).
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
(cd "$root" && cp -a package.json package-lock.json tsconfig.json src schemas fixtures "$context/")
echo "check-dockerfile: docker build -f docker/Dockerfile --build-arg NODE_IMAGE=$base_tag -t $image_tag"
docker build --force-rm --network host --build-arg "NODE_IMAGE=$base_tag" -f "$root/docker/Dockerfile" -t "$image_tag" "$context"

echo "check-dockerfile: access-conformance run --image $image_tag"
set +e
node "$root/bin/access-conformance.js" run --image "$image_tag" --reporter json --out "$out"
code=$?
set -e
echo "check-dockerfile: run --image exited $code (report: $out/report.json)"
exit "$code"
