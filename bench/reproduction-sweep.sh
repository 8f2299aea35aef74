#!/usr/bin/env bash
# How many failures a standalone reproduction covers, measured over the fault registry (docs/reproductions.md):
# for every Nth fault by name, `serve --fault F --hooks`, the default run against its profile, the target's
# clock moved 10 minutes on, then every `reproduce:` command of the report run as printed.
# Prints one line a fault and a total; bounded: each run 3 min, each replay 30 s, serve stopped each time.
# Usage: bench/reproduction-sweep.sh [every-nth=4] [work-dir]   (needs `npm run build` done)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
every="${1:-4}"
work="${2:-$(mktemp -d "${TMPDIR:-/tmp}/ac-repro-sweep-XXXXXX")}"
bin="$root/bin/access-conformance.js"
mkdir -p "$work/bin"
printf '#!/bin/sh\nexec node "%s" "$@"\n' "$bin" >"$work/bin/access-conformance"
chmod +x "$work/bin/access-conformance"
export PATH="$work/bin:$PATH"

total_failed=0 total_cmd=0 total_ok=0 total_not=0
mapfile -t faults < <(node "$bin" serve --list-faults | awk 'NR > 3 && NF > 2 { print $1 }' | sort | awk -v n="$every" 'NR % n == 1')
for fault in "${faults[@]}"; do
  dir="$work/$fault"
  mkdir -p "$dir"
  (cd "$dir" && exec node "$bin" serve --fault "$fault" --hooks --profile-out target.json >serve.log 2>&1) &
  serve=$!
  for _ in $(seq 1 100); do [ -s "$dir/target.json" ] && grep -q 'Press Ctrl-C' "$dir/serve.log" && break; sleep 0.1; done
  (cd "$dir" && timeout 180 node "$bin" run --profile target.json --reporter json --out out >run.log 2>&1) || true
  hooks="$(node -e 'const h=require(process.argv[1]).hooks;console.log(h.baseUrl+" "+h.token)' "$dir/target.json")"
  curl -s -m 10 -X POST -H "authorization: Bearer ${hooks#* }" -H 'content-type: application/json' -d '{"advanceSeconds":600}' "${hooks% *}/clock" >/dev/null
  failed=0 cmd=0 ok=0 not=0
  while IFS=$'\t' read -r id command; do
    failed=$((failed + 1))
    [ -n "$command" ] || continue
    cmd=$((cmd + 1))
    if (cd "$dir" && timeout 30 sh -c "$command" >>replays.log 2>&1); then ok=$((ok + 1)); else not=$((not + 1)); echo "  not reproduced: $fault $id" >&2; fi
  done < <(node -e '
    const r = require(process.argv[1]);
    for (const x of r.results) if (x.state === "failed" || x.state === "errored") console.log(`${x.id}\t${x.reproduction && x.reproduction.command ? x.reproduction.command : ""}`);
  ' "$dir/out/report.json")
  kill "$serve" 2>/dev/null || true
  wait "$serve" 2>/dev/null || true
  echo "$fault: failed $failed, with a command $cmd, reproduced $ok, not $not"
  total_failed=$((total_failed + failed)) total_cmd=$((total_cmd + cmd)) total_ok=$((total_ok + ok)) total_not=$((total_not + not))
done
echo "TOTAL ${#faults[@]} faults: failed or errored checks $total_failed, with a standalone command $total_cmd, reproduced $total_ok, not reproduced $total_not"
node -e '
  const fs = require("fs"), path = require("path"), counts = {};
  for (const d of fs.readdirSync(process.argv[1])) {
    const f = path.join(process.argv[1], d, "out", "report.json");
    if (!fs.existsSync(f)) continue;
    for (const x of JSON.parse(fs.readFileSync(f, "utf8")).results) if (x.reproduction && x.reproduction.unavailable) counts[x.reproduction.unavailable] = (counts[x.reproduction.unavailable] || 0) + 1;
  }
  for (const [why, n] of Object.entries(counts).sort((a, b) => b[1] - a[1])) console.log(`  no command (${n}): ${why}`);
' "$work"
