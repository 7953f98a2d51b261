'use strict';
// Run by scripts/build.mjs as `node scripts/code-cache.cjs <dir>/main.cjs`: loads the bundle the way
// bin/svc does, runs `svc version` (which builds the command registry every command goes through), and
// writes V8's code cache of what was compiled to <dir>/main.cjs.cache for bin/svc to start from.
const fs = require('node:fs');
const { loadMain } = require('../bin/load-main.cjs');

const file = process.argv[2];
const { exports: cli, script } = loadMain(file);
process.on('exit', () => fs.writeFileSync(`${file}.cache`, script.createCachedData()));
cli.main(['version']);
