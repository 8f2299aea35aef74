#!/usr/bin/env bash
# The GitHub Action's install step (action.yml): installs what `run` needs and nothing else. The packed
# package (its compiled dist/, so no `tsc` in the user's job) with its production dependencies, without
# dev dependencies and, unless `args` asks for `--image`, without testcontainers (an optional peer
# dependency, which npm does not install by itself); into a prefix of its own under $RUNNER_TEMP, so the
# user's node_modules and lockfile are untouched. Optional dependencies stay: vitest's bundler needs its
# platform's native binding, which is one.
#
# INPUT_PACKAGE: what to install, as npm takes it: empty = access-conformance@<this action's version> from
# the registry; or a tarball path (relative to the workspace), URL, or another registry spec.
# Writes `dir=<installed package>` to $GITHUB_OUTPUT and how long the install took to the log.
set -euo pipefail

action_path="${GITHUB_ACTION_PATH:-$(cd "$(dirname "$0")" && pwd)}"
prefix="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/access-conformance-action"
spec="${INPUT_PACKAGE:-}"
if [ -z "$spec" ]; then
  spec="access-conformance@$(node -p 'require(process.argv[1]).version' "$action_path/package.json")"
fi
install=(npm install --prefix "$prefix" --omit=dev --no-package-lock --no-audit --no-fund --loglevel=error)

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
elapsed_ms=$(( ($(date +%s%N) - start) / 1000000 ))
echo "access-conformance: installed $spec${added:+ and $added} in $((elapsed_ms / 1000)).$(( (elapsed_ms % 1000) / 100 )) s"
if [ -n "${GITHUB_OUTPUT:-}" ]; then echo "dir=$dir" >>"$GITHUB_OUTPUT"; fi
