#!/usr/bin/env node
// The published entry: the compiled CLI. `npm ci` builds dist/ through the `prepare` script.
import { main } from '../dist/src/cli/main.js';

process.exitCode = await main(process.argv.slice(2));
// Once a command returned its exit code, nothing it started may keep the process alive (a suite worker
// still waiting on a hung target, a socket a target never closes): end it after a short grace.
setTimeout(() => process.exit(), 3_000).unref();
