/**
 * `node dist/bench/scale-target.js <dir> <operations>`: the target of the scale runs, in its own process (so
 * the measured run does not share its event loop): the reference sandbox (hooks on, as the embedded run has
 * them) behind a handler that maps the generated paths `/api/v1/g<i>/…` to the reference's own
 * (bench/scale-description.ts), and the generated description written beside its profile. Sends
 * {profilePath, openapiPath} over IPC; stops when the parent disconnects or on SIGTERM.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startSandbox } from '../src/tenant/sandbox.js';
import { scaleDescription, templatePath } from './scale-description.js';

const [dir, count] = [process.argv[2]!, Number(process.argv[3])];
const sandbox = await startSandbox({
  seed: 'scale',
  hooks: true,
  profileDir: dir,
  logger: () => {},
  customize: { wrapHandler: (handler) => (request) => handler({ ...request, url: templatePath(request.url) }) },
});
const openapiPath = join(dir, `scale-${count}.openapi.json`);
writeFileSync(openapiPath, JSON.stringify(scaleDescription(sandbox.baseUrl, count)));
process.send?.({ profilePath: sandbox.profilePath, openapiPath });
const stop = async (): Promise<void> => {
  await sandbox.close();
  process.exit(0);
};
process.on('disconnect', () => void stop());
process.on('SIGTERM', () => void stop());
