#!/usr/bin/env bash
# Builds docker/harness.Dockerfile (the harness itself as an image) where no image registry is reachable,
# and checks it the way a GitLab or Jenkins job uses it: `serve` runs on this host, the image runs
# `run --profile` against it over the host network, and writes its reports to a mounted folder. Then, with
# the engine's socket mounted, the image runs `run --image` of the reference image (built from a local root
# filesystem by `npm run image:reference`), its reports in <report-folder>/image.
#
# node:<line>-slim cannot be pulled here: docker/standin-base.sh makes a stand-in of the same shape. The
# build context is the packed package (`npm pack`, from the dist/ that `npm run build` made) alone.
# Needs root (debootstrap, chroot), debootstrap, a running Docker engine, and `npm run build` done.
# Usage: docker/check-harness-image.sh [report-folder]     (default reports/harness-image-check)
# The images it makes carry a tag of this run's own and are removed at the end (KEEP_IMAGES=1 keeps them).
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=standin-base.sh
. "$root/docker/standin-base.sh"
out="${1:-$root/reports/harness-image-check}"
version="$(node -p "require('$root/package.json').version")"
work="$(mktemp -d "${TMPDIR:-/tmp}/access-conformance-harness-image-XXXXXX")"
run_id="$(basename "$work" | tr '[:upper:]' '[:lower:]' | tr -cd 'a-z0-9' | tail -c 6)"
node_line="$(dockerfile_node_line "$root/docker/harness.Dockerfile")"
[ -n "$node_line" ] || { echo "check-harness-image: no ARG NODE_IMAGE=node:<line>-slim in docker/harness.Dockerfile" >&2; exit 2; }
base_tag="access-conformance-local/node:${node_line}-slim-standin-$run_id"
image_tag="access-conformance:${version}-harness-$run_id"
# The reference image `run --image` checks from inside the harness image: this run's own tag, so that the
# container tests beside it (which build access-conformance-reference:<version>) are left alone.
reference_tag="access-conformance-reference:${version}-harness-$run_id"
serve_pid=""
cleanup() {
  if [ -n "$serve_pid" ]; then kill "$serve_pid" 2>/dev/null || true; wait "$serve_pid" 2>/dev/null || true; fi
  remove_standin_images check-harness-image "$work" "$base_tag" "$image_tag" "$reference_tag"
}
trap cleanup EXIT
trap 'exit 143' TERM INT

check_standin_prerequisites check-harness-image "$root"

make_standin_base "$work" "$base_tag" "$node_line" check-harness-image

# The context is the packed package alone (--ignore-scripts: dist/ is built; `prepare` would compile again).
context="$work/context"
mkdir -p "$context"
(cd "$root" && npm pack --ignore-scripts --pack-destination "$context" --loglevel=error >/dev/null)
echo "check-harness-image: packed $(ls "$context")"
start="$(date +%s)"
docker build --force-rm --network host --build-arg "NODE_IMAGE=$base_tag" -f "$root/docker/harness.Dockerfile" -t "$image_tag" "$context" 2>&1 | tee -a "$work/build.log"
echo "check-harness-image: built $image_tag in $(( $(date +%s) - start )) s, $(docker image inspect "$image_tag" --format '{{.Size}}') bytes"

# The target: `serve` on this host (127.0.0.1), reached by the container over the host network.
mkdir -p "$work/target" "$out"
node "$root/bin/access-conformance.js" serve --hooks --seed harness-image --profile-out "$work/target/target.json" >"$work/serve.log" 2>&1 &
serve_pid=$!
for _ in $(seq 1 300); do
  grep -q 'Press Ctrl-C' "$work/serve.log" 2>/dev/null && break
  kill -0 "$serve_pid" 2>/dev/null || { cat "$work/serve.log" >&2; echo "check-harness-image: serve exited" >&2; exit 2; }
  sleep 0.2
done
grep -q 'Press Ctrl-C' "$work/serve.log" || { echo "check-harness-image: serve did not start in 60 s" >&2; exit 2; }
echo "check-harness-image: serve on the host: $(sed -n 's/^  base URL: *//p' "$work/serve.log")"

echo "check-harness-image: docker run --network host -v <target>:/target:ro -v <reports>:/reports $image_tag run --profile /target/target.json"
set +e
docker run --rm --label access-conformance.harness-image-check=1 --network host --user "$(id -u):$(id -g)" -v "$work/target:/target:ro" -v "$out:/reports" \
  "$image_tag" run --profile /target/target.json --reporter json,junit --out /reports
code=$?
set -e
echo "check-harness-image: run --profile in the image exited $code (reports: $out)"
[ "$code" = 0 ] || exit "$code"

# `run --image` from inside the image: the engine's socket mounted, the socket's group added to the image's
# user (`node`), and one temporary folder at the same path on both sides (the harness bind-mounts a folder
# of its own into the implementation's container, and the engine resolves that path on the host).
start="$(date +%s)"
node --input-type=module -e "const { buildReferenceImage } = await import(process.argv[1]); await buildReferenceImage({ image: process.argv[2] });" \
  "$root/dist/src/containers/index.js" "$reference_tag"
echo "check-harness-image: built $reference_tag from a local root filesystem in $(( $(date +%s) - start )) s"
shared_tmp="$work/shared-tmp"
mkdir -p "$shared_tmp" "$out/image"
chmod 1777 "$shared_tmp"
socket="${DOCKER_SOCKET:-/var/run/docker.sock}"
echo "check-harness-image: docker run -v $socket:$socket --group-add <socket gid> -v <tmp>:<tmp> -e TMPDIR=<tmp> $image_tag run --image $reference_tag"
set +e
docker run --rm --label access-conformance.harness-image-check=1 --network host --user "$(id -u):$(id -g)" --group-add "$(stat -c %g "$socket")" \
  -v "$socket:/var/run/docker.sock" -v "$shared_tmp:$shared_tmp" -e "TMPDIR=$shared_tmp" -v "$out/image:/reports" \
  "$image_tag" run --image "$reference_tag" --reporter json,junit --out /reports
code=$?
set -e
echo "check-harness-image: run --image in the image exited $code (reports: $out/image)"
exit "$code"
