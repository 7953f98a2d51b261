'use strict';
// Loads dist/main.cjs as require() would, but compiled with V8's code cache (dist/main.cjs.cache,
// written by the build): compiling the CLI's 160 KB bundle is most of what `svc version` adds to a bare
// `node -e 0`, and a cache V8 accepts skips it. V8 rejects a cache made by another Node version, other
// flags or another source; the bundle is then compiled as usual. The module is entered in require's
// cache, so the CLI's lazily loaded bundles, which take shared modules from require('./main.cjs'), get
// this instance and not a second one.
const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');
const vm = require('node:vm');

/** Module's own wrapper: the source V8 hashes must be the same when the cache is made and used. */
const wrap = (source) => `(function (exports, require, module, __filename, __dirname) { ${source}\n});`;

function loadMain(file, { cachedData } = {}) {
  let filename;
  try {
    filename = fs.realpathSync(file);
  } catch (err) {
    if (err.code !== 'ENOENT') throw err;
    throw new Error(`svc is not built: ${file} is missing; run \`npm run build\` in its repository, or install it again`);
  }
  const script = new vm.Script(wrap(fs.readFileSync(filename, 'utf8')), { filename, cachedData });
  const mod = new Module(filename, module);
  mod.filename = filename;
  mod.paths = Module._nodeModulePaths(path.dirname(filename));
  Module._cache[filename] = mod;
  try {
    script.runInThisContext().call(mod.exports, mod.exports, Module.createRequire(filename), mod, filename, path.dirname(filename));
  } catch (err) {
    delete Module._cache[filename];
    throw err;
  }
  mod.loaded = true;
  return { exports: mod.exports, script };
}

function readCache(file) {
  try {
    return fs.readFileSync(`${file}.cache`);
  } catch {
    return undefined;
  }
}

module.exports = { loadMain, readCache };
