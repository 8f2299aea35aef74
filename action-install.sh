#!/usr/bin/env bash
# The GitHub Action's install step (action.yml): installs what `run` needs and nothing else. The packed
# package (its compiled dist/, so no `tsc` in the user's job) with its production dependencies, without
# dev dependencies and, unless `args` asks for `--image`, without testcontainers (an optional peer
# dependency, which npm does not install by itself); into a prefix of its own under $RUNNER_TEMP, so the
# user's node_modules and lockfile are untouched. Optional dependencies stay: vitest's bundler needs its
# platform's native binding, which is one.
#
# INPUT_PACKAGE: what to install, as npm takes it: a tarball path (relative to the workspace), a URL (a
# release asset), or a registry spec once the package is published. Empty: the action's own checkout
# ($GITHUB_ACTION_PATH, the files of <owner>/<repo>@<ref> as the runner laid them out), because the package
# is not in the npm registry: a tarball `npm pack` left there (access-conformance-<version>.tgz) if there
# is one; else its dist/ packed, built there first when the checkout has none (`npm ci --ignore-scripts`,
# then tsc: the dev dependencies stay in the action's folder, never in the user's job).
# Writes `dir=<installed package>` to $GITHUB_OUTPUT and how long each part took to the log.
set -euo pipefail

action_path="${GITHUB_ACTION_PATH:-$(cd "$(dirname "$0")" && pwd)}"
prefix="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/access-conformance-action"
quiet=(--no-audit --no-fund --loglevel=error)

seconds_since() {
  local ms=$(( ($(date +%s%N) - $1) / 1000000 ))
  echo "$((ms / 1000)).$(( (ms % 1000) / 100 )) s"
}

# The action's own checkout as a tarball; prints its path.
pack_checkout() {
  local version tarball packs started
  version="$(node -p 'require(process.argv[1]).version' "$action_path/package.json")"
  tarball="$action_path/access-conformance-$version.tgz"
  if [ -f "$tarball" ]; then
    echo "access-conformance: the action's checkout carries $(basename "$tarball")" >&2
    echo "$tarball"
    return
  fi
  if [ ! -f "$action_path/dist/src/action/run.js" ]; then
    started="$(date +%s%N)"
    # --ignore-scripts: no dependency's install script runs (none is needed to compile), and `prepare` is
    # run below as what it is, tsc.
    (cd "$action_path" && npm ci --ignore-scripts "${quiet[@]}" >&2 && node node_modules/typescript/bin/tsc -p tsconfig.build.json >&2)
    echo "access-conformance: built the action's checkout (npm ci, tsc) in $(seconds_since "$started")" >&2
  fi
  packs="$prefix-packs"
  mkdir -p "$packs"
  # --ignore-scripts: `prepare` would compile again what is compiled.
  (cd "$action_path" && npm pack --ignore-scripts --pack-destination "$packs" --loglevel=error | tail -n 1 | sed "s|^|$packs/|")
}

spec="${INPUT_PACKAGE:-}"
[ -n "$spec" ] || spec="$(pack_checkout)"
install=(npm install --prefix "$prefix" --omit=dev --no-package-lock "${quiet[@]}")

start="$(date +%s%N)"
"${install[@]}" "$spec"
dir="$prefix/node_modules/access-conformance"
[ -f "$dir/dist/src/action/run.js" ] || { echo "::error title=access-conformance action::$spec has no dist/src/action/run.js (not a packed access-conformance?)"; exit 2; }
added=""
# `run --image` starts the implementation's image through testcontainers: the range the package accepts.
case " ${INPUT_ARGS:-} " in
  *--image*)
    added="testcontainers@$(node -p 'require(process.argv[1]).peerDependencies.testcontainers' "$dir/package.json")"
    "${install[@]}" "$spec" "$added"
    ;;
esac
echo "access-conformance: installed $spec${added:+ and $added} in $(seconds_since "$start")"
if [ -n "${GITHUB_OUTPUT:-}" ]; then echo "dir=$dir" >>"$GITHUB_OUTPUT"; fi
