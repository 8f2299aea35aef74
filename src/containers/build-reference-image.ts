/**
 * Script behind `npm run image:reference`: builds access-conformance-reference:<version> from a locally
 * assembled root filesystem (no registry). Exit 0 when built, 2 on a harness error.
 */
import { EXIT, HarnessError, isHarnessError } from '../errors.js';
import { buildReferenceImage } from './reference-image.js';

async function main(): Promise<number> {
  const started = Date.now();
  const verbose = process.argv.includes('--verbose');
  try {
    const built = await buildReferenceImage({ onOutput: verbose ? (line) => process.stdout.write(`  ${line}\n`) : undefined });
    const megabytes = (built.rootfsBytes / 1024 / 1024).toFixed(0);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    process.stdout.write(`built ${built.image} (${megabytes} MB root filesystem, ${built.packages} npm packages) in ${seconds} s\n`);
    process.stdout.write(`run it with: access-conformance run --image ${built.image}\n`);
    return EXIT.CONFORMANT;
  } catch (error) {
    if (isHarnessError(error)) {
      process.stderr.write(`${HarnessError.prototype.format.call(error)}\n`);
      return EXIT.HARNESS;
    }
    throw error;
  }
}

process.exitCode = await main();
