/**
 * The containers the harness started, found by label: for tests that check nothing was left behind, and
 * for removing a container kept with --keep-container.
 */
import { connectDocker } from './runtime.js';

/** Label every container started by startImageTarget carries. */
export const IMAGE_TARGET_LABEL = 'dev.access-conformance.role';
export const IMAGE_TARGET_ROLE = 'image-target';

export interface ContainerSummary {
  id: string;
  image: string;
  state: string;
}

/** Containers (running or not) started by startImageTarget. */
export async function listImageTargetContainers(): Promise<ContainerSummary[]> {
  const client = await connectDocker();
  const found = await client.container.dockerode.listContainers({
    all: true,
    filters: { label: [`${IMAGE_TARGET_LABEL}=${IMAGE_TARGET_ROLE}`] },
  });
  return found.map((info) => ({ id: info.Id, image: info.Image, state: info.State }));
}

/** Removes a container, running or not; a missing one is fine. */
export async function removeContainer(id: string): Promise<void> {
  const client = await connectDocker();
  await client.container.dockerode
    .getContainer(id)
    .remove({ force: true, v: true })
    .catch(() => undefined);
}
