#!/usr/bin/env bash
# Builds docker/Dockerfile where no image registry is reachable, and checks the image it makes.
#
# node:<line>-slim (the Dockerfile's default NODE_IMAGE, node:24-slim) cannot be pulled here, so this script
# makes a stand-in with the same shape (docker/standin-base.sh: Debian bookworm from debootstrap, Node of that
# line from the npm registry, this machine's npm, a user `node` with uid 1000). It then builds docker/Dockerfile on it (`npm ci` reaches the npm registry over the
# host network) and runs `access-conformance run --image` on the result: exit 0 expected.
#
# Needs root (debootstrap, chroot), debootstrap, a running Docker engine, and `npm run build` done.
# Usage: docker/check-dockerfile.sh [report-folder]     (default reports/dockerfile-check)
# Every image it makes carries a tag of this run's own, and is removed at the end (KEEP_IMAGES=1 keeps
# them); nothing else on the engine is touched. DEBOOTSTRAP_MIRROR overrides the Debian mirror.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=standin-base.sh
. "$root/docker/standin-base.sh"
out="${1:-$root/reports/dockerfile-check}"
version="$(node -p "require('$root/package.json').version")"
work="$(mktemp -d "${TMPDIR:-/tmp}/access-conformance-dockerfile-XXXXXX")"
run_id="$(basename "$work" | tr '[:upper:]' '[:lower:]' | tr -cd 'a-z0-9' | tail -c 6)"
# The Node line of the Dockerfile's default base (ARG NODE_IMAGE=node:<line>-slim): the stand-in carries it.
node_line="$(dockerfile_node_line "$root/docker/Dockerfile")"
[ -n "$node_line" ] || { echo "check-dockerfile: no ARG NODE_IMAGE=node:<line>-slim in docker/Dockerfile" >&2; exit 2; }
base_tag="access-conformance-local/node:${node_line}-slim-standin-$run_id"
stage_tag="access-conformance-local/dockerfile-build-stage:$run_id"
image_tag="access-conformance-reference:${version}-dockerfile-$run_id"
cleanup() { remove_standin_images check-dockerfile "$work" "$base_tag" "$image_tag" "$stage_tag"; }
trap cleanup EXIT
# A TERM or INT (a test timing out, Ctrl-C) still runs the cleanup.
trap 'exit 143' TERM INT

check_standin_prerequisites check-dockerfile "$root"

make_standin_base "$work" "$base_tag" "$node_line" check-dockerfile

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
