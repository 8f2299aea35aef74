/**
 * The image contract: the environment variables the harness gives a container it starts with `run --image`.
 * Shared by the harness side (src/containers) and the reference image's entrypoint (src/image), so both read
 * the same names. No third-party imports here: the entrypoint runs inside a minimal image.
 */

/** Public base URL the harness will call; also the `sub`/`aud` of the webhook JWTs it sends. No trailing slash. */
export const ENV_BASE_URL = 'CONFORMANCE_BASE_URL';
/** Absolute path (inside the container, in a mounted folder) where the implementation writes its target profile. */
export const ENV_PROFILE_OUT = 'CONFORMANCE_PROFILE_OUT';
/** `1` when the implementation should offer the test hooks (test-hooks.md), `0` otherwise. */
export const ENV_HOOKS = 'CONFORMANCE_HOOKS';
/** TCP port the implementation must listen on. */
export const ENV_PORT = 'CONFORMANCE_PORT';
/** Address to listen on: `127.0.0.1` with host networking, `0.0.0.0` behind a mapped port. */
export const ENV_HOST = 'CONFORMANCE_HOST';
/**
 * Host name under which the container reaches the harness (for JWKS URLs the harness must serve):
 * `127.0.0.1` with host networking, `host.docker.internal` (the host gateway) otherwise.
 */
export const ENV_HARNESS_HOST = 'CONFORMANCE_HARNESS_HOST';
/** `host` or `bridge`: the network mode the harness chose, for the implementation's logs. */
export const ENV_NETWORK = 'CONFORMANCE_NETWORK';

/** Every name the harness sets; `--image-env` may not override them. */
export const CONTRACT_ENV_NAMES: readonly string[] = [
  ENV_BASE_URL,
  ENV_PROFILE_OUT,
  ENV_HOOKS,
  ENV_PORT,
  ENV_HOST,
  ENV_HARNESS_HOST,
  ENV_NETWORK,
];

// Only the reference image reads these (through --image-env); they are not part of the contract.
/** Name of a fault from src/faults to switch on in the reference implementation. */
export const ENV_FAULT = 'CONFORMANCE_FAULT';
/** Seed of the reference tenant's generated data. */
export const ENV_SEED = 'CONFORMANCE_SEED';

/** Folder the harness mounts into the container; the profile goes there. */
export const CONTAINER_PROFILE_DIR = '/conformance';
/** File name of the profile inside that folder. */
export const PROFILE_FILE_NAME = 'target-profile.json';
/** Host name of the host gateway when the container is not on the host network. */
export const HOST_GATEWAY_NAME = 'host.docker.internal';
