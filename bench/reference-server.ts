/**
 * Child process of the reference bench: a sandbox with hooks off, so the load generator does not share its
 * event loop with the server. Sends {baseUrl, profilePath} over IPC, stops when the parent disconnects.
 */
import { startSandbox } from '../src/tenant/sandbox.js';

const sandbox = await startSandbox({ seed: 'bench', hooks: false, profileDir: process.argv[2], logger: () => {} });
process.send?.({ baseUrl: sandbox.baseUrl, profilePath: sandbox.profilePath, pid: process.pid });
const stop = async (): Promise<void> => {
  await sandbox.close();
  process.exit(0);
};
process.on('disconnect', () => void stop());
process.on('SIGTERM', () => void stop());
