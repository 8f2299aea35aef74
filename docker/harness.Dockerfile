# The harness itself as an image, for CI that runs jobs in containers (GitLab CI, Jenkins) or has no Node:
#   docker run --rm --network host -v "$PWD:/work" -w /work --user "$(id -u):$(id -g)" \
#     access-conformance:<version> run --profile target.json --reporter junit,json,html --out reports
# Built from the packed package (`npm pack` → access-conformance-<version>.tgz in the build context), so it
# holds what an `npm install` of the release holds: the compiled dist/, production dependencies and
# testcontainers for `run --image` with the engine's socket mounted. docs/ci.md shows the CI jobs.
#
#   npm pack && docker build -f docker/harness.Dockerfile -t access-conformance:<version> .
#
# NODE_IMAGE as in docker/Dockerfile (node:24-slim; docker/check-harness-image.sh builds a local stand-in).
ARG NODE_IMAGE=node:24-slim
FROM ${NODE_IMAGE}
ENV NODE_ENV=production NO_UPDATE_NOTIFIER=1
COPY access-conformance-*.tgz /tmp/
# The release and the range of testcontainers it accepts (an optional peer dependency), into /usr/local.
RUN set -e; tarball="$(ls /tmp/access-conformance-*.tgz)"; \
    range="$(tar -xzOf "$tarball" package/package.json | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>process.stdout.write(JSON.parse(s).peerDependencies.testcontainers))')"; \
    npm install -g --omit=dev --no-audit --no-fund --loglevel=error "$tarball" "testcontainers@$range"; \
    rm -f "$tarball"; npm cache clean --force; access-conformance --version
# Reports go to the mounted folder: run as the workspace's owner (--user), or as `node` (uid 1000).
USER node
WORKDIR /work
ENTRYPOINT ["access-conformance"]
CMD ["--help"]
