#!/usr/bin/env node
// The published entry: the compiled CLI. `npm ci` builds dist/ through the `prepare` script.
import { main } from '../dist/src/cli/main.js';

process.exitCode = await main(process.argv.slice(2));
