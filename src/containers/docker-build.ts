/**
 * Building an image from a local context folder through the engine's API (no docker CLI needed). Used by
 * `npm run image:reference` and by the tests' small "bad" images. Build errors come back in the progress
 * stream, not as an HTTP error, so the stream is read to the end and its error lines turned into
 * IMAGE_BUILD_FAILED. Images are built with the classic builder: `FROM scratch` and `FROM <local image>`
 * need no registry there.
 */
import { HarnessError } from '../errors.js';
import { connectDocker } from './runtime.js';

interface ProgressEvent {
  stream?: string;
  error?: string;
  errorDetail?: { message?: string };
}

export interface BuildImageOptions {
  /** Folder holding the Dockerfile and everything it ADDs. */
  contextDir: string;
  /** Files and folders of the context to send, relative to contextDir (Dockerfile included). */
  files: string[];
  /** Tag(s) of the result, e.g. `access-conformance-reference:0.1.0`. */
  tags: string[];
  labels?: Record<string, string>;
  /** Receives the builder's output lines. */
  onOutput?: (line: string) => void;
}

export async function buildImage(options: BuildImageOptions): Promise<void> {
  const client = await connectDocker();
  const docker = client.container.dockerode;
  const [first, ...others] = options.tags;
  if (first === undefined) throw new HarnessError('USAGE', 'buildImage needs at least one tag');
  let events: ProgressEvent[];
  try {
    const stream = await docker.buildImage(
      { context: options.contextDir, src: options.files },
      { t: first, labels: options.labels, rm: true, forcerm: true, version: '1' },
    );
    events = await new Promise<ProgressEvent[]>((resolve, reject) => {
      docker.modem.followProgress(
        stream,
        (error: Error | null, output: ProgressEvent[]) => (error ? reject(error) : resolve(output)),
        (event: ProgressEvent) => {
          if (event.stream && options.onOutput) {
            for (const line of event.stream.split('\n')) if (line.trim() !== '') options.onOutput(line);
          }
        },
      );
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new HarnessError('IMAGE_BUILD_FAILED', `building ${first} failed: ${reason}`, { cause: error });
  }
  const failure = events.find((event) => event.error !== undefined || event.errorDetail !== undefined);
  if (failure) {
    const reason = failure.errorDetail?.message ?? failure.error ?? 'unknown error';
    throw new HarnessError('IMAGE_BUILD_FAILED', `building ${first} failed: ${reason}`);
  }
  for (const tag of others) {
    const [repo, version] = splitTag(tag);
    await docker.getImage(first).tag({ repo, tag: version });
  }
}

/** `name:tag` → [name, tag]; a registry port (`host:5000/name`) is not taken for a tag. */
export function splitTag(reference: string): [string, string] {
  const slash = reference.lastIndexOf('/');
  const colon = reference.lastIndexOf(':');
  if (colon > slash) return [reference.slice(0, colon), reference.slice(colon + 1)];
  return [reference, 'latest'];
}

/** Removes images by name; missing ones are fine. For tests and for replacing a stale tag. */
export async function removeImages(names: string[]): Promise<void> {
  const client = await connectDocker();
  for (const name of names) {
    await client.container.dockerode
      .getImage(name)
      .remove({ force: true })
      .catch(() => undefined);
  }
}

/** Label of every image this project builds (inherited by images built FROM them). */
export const BUILT_IMAGE_LABEL = 'dev.access-conformance.role';

/**
 * Removes untagged images that carry our label: what a rebuild leaves of the previous version. Images of
 * other projects are never touched; one still used by a container stays.
 */
export async function pruneUntaggedImages(): Promise<void> {
  const client = await connectDocker();
  await client.container.dockerode.pruneImages({ filters: { dangling: ['true'], label: [BUILT_IMAGE_LABEL] } }).catch(() => undefined);
}
