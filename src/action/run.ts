/**
 * The GitHub Action's step (action.yml): reads the INPUT_* variables, runs `access-conformance run` with
 * them in the workspace, writes exit-code, verdict and report-dir to $GITHUB_OUTPUT, a verdict line to
 * $GITHUB_STEP_SUMMARY unless the markdown reporter appends its summary there, and exits with the run's
 * code (so the step fails when the target is not conformant; outputs are written first).
 */
import { spawn } from 'node:child_process';
import { appendFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EXIT, HarnessError, isHarnessError } from '../errors.js';
import { outputLines, readInputs, runArgs, summaryLine } from './inputs.js';

const CLI = fileURLToPath(new URL('../../../bin/access-conformance.js', import.meta.url));

function runCli(args: string[]): Promise<number> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: 'inherit' });
    // The runner cancels a job with SIGINT then SIGTERM to the step: pass them on, so the run writes its
    // reports and stops its target.
    const forward = (signal: NodeJS.Signals): void => {
      child.kill(signal);
    };
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.on('error', fail);
    child.on('close', (code, signal) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      done(code ?? (signal === 'SIGINT' ? 130 : signal === 'SIGTERM' ? 143 : EXIT.HARNESS));
    });
  });
}

async function main(env: NodeJS.ProcessEnv): Promise<number> {
  let exitCode: number;
  let reportDir = resolve('reports');
  let markdown = false;
  try {
    const inputs = readInputs(env);
    reportDir = resolve(inputs.out);
    markdown = inputs.reporters.includes('markdown');
    const args = runArgs(inputs);
    process.stdout.write(`access-conformance ${args.join(' ')}\n`);
    exitCode = await runCli(args);
  } catch (error) {
    const message = isHarnessError(error) ? HarnessError.prototype.format.call(error) : String(error);
    process.stdout.write(`::error title=access-conformance action::${message.replace(/\r?\n/g, '%0A')}\n`);
    exitCode = EXIT.HARNESS;
  }
  if (env.GITHUB_OUTPUT) await appendFile(env.GITHUB_OUTPUT, outputLines(exitCode, reportDir));
  if (env.GITHUB_STEP_SUMMARY && !markdown) await appendFile(env.GITHUB_STEP_SUMMARY, summaryLine(exitCode, reportDir));
  return exitCode;
}

process.exitCode = await main(process.env);
