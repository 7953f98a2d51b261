/** Server configuration files written to a directory of the test's own and read as `svc server -config` reads them. */
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { loadConfigFile } from '../../src/server/config-file.js';
import { makeTempDir } from './server.js';

/** For a test file: `load(name, text)` writes the file and answers what the server reads of it; the directory goes with the file's tests. */
export function configFiles(prefix: string): { load: (name: string, text: string) => ReturnType<typeof loadConfigFile> } {
  let dir: string;
  beforeAll(async () => {
    dir = await makeTempDir(prefix);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  return {
    async load(name, text) {
      const file = path.join(dir, name);
      await writeFile(file, text);
      return loadConfigFile(file);
    },
  };
}
