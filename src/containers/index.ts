/**
 * Containers: the only folder that imports testcontainers. Loaded lazily (`await import(...)`) by the run
 * command when --image is given, so that runs without it never need Docker or load testcontainers.
 */
export { startImageTarget, type ImageTarget, type ImageTargetOptions } from './image-target.js';
export { chooseNetworkMode, type NetworkChoice, type NetworkMode, type NetworkRequest } from './runtime.js';
export { buildReferenceImage, referenceImageName, type BuiltImage } from './reference-image.js';
export { buildImage, pruneUntaggedImages, removeImages, type BuildImageOptions } from './docker-build.js';
export { IMAGE_TARGET_LABEL, listImageTargetContainers, removeContainer, type ContainerSummary } from './inventory.js';
