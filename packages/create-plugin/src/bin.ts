#!/usr/bin/env node
// The `create-plugin` binary, run by `npm create @weir/plugin` and `npx @weir/create-plugin`.
import { main } from './main.js';

process.exitCode = await main(process.argv.slice(2));
