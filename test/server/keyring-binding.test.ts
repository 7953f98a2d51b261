/**
 * The state remembers the keyring it was sealed with: a data dir whose keyring was replaced by another
 * (a restore that mixed backups, a copied keyring file) is refused at start with the reason, rather than
 * starting and then refusing every token.
 */
import { copyFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { buildServer } from '../../src/server/app.js';
import { makeTempDir } from '../support/server.js';
import { createDatabase, startPostgres, type Postgres } from '../support/postgres.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

async function initialised(): Promise<string> {
  const dir = await makeTempDir('svc-keyring-');
  dirs.push(dir);
  const server = await buildServer({ dev: false, dataDir: dir, client: false, logWrite: () => undefined });
  await server.close();
  return dir;
}

describe('the keyring the state was made with', () => {
  it('opens it again; another keyring is refused at start, naming what to do', async () => {
    const a = await initialised();
    const again = await buildServer({ dev: false, dataDir: a, client: false, logWrite: () => undefined });
    expect(again.rootToken).toBeUndefined();
    await again.close();

    const b = await initialised();
    await copyFile(path.join(b, 'keyring.json'), path.join(a, 'keyring.json'));
    await expect(buildServer({ dev: false, dataDir: a, client: false, logWrite: () => undefined })).rejects.toThrow(
      /was sealed with keyring key \S+, which is not in this data dir's keyring .*: start with the data dir, and seal key if any, that the state was made with/,
    );
  });
});

describe('servers starting together on an empty shared database', () => {
  let postgres: Postgres | undefined;
  afterAll(async () => postgres?.stop());

  it('bind the keyring of the first to commit; the other, with its own new keyring, is refused', async () => {
    postgres = await startPostgres();
    const storageUrl = await createDatabase(postgres.url, 'keyring_race');
    const dataDirs = [await makeTempDir('svc-keyring-a-'), await makeTempDir('svc-keyring-b-')];
    dirs.push(...dataDirs);
    const outcomes = await Promise.allSettled(dataDirs.map((dataDir) => buildServer({ dev: false, dataDir, storageUrl, client: false, logWrite: () => undefined })));
    const started = outcomes.filter((o) => o.status === 'fulfilled');
    const refused = outcomes.filter((o) => o.status === 'rejected');
    expect(started).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(String((refused[0] as PromiseRejectedResult).reason)).toMatch(/which is not in this data dir's keyring/);
    const server = (started[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof buildServer>>>).value;
    expect(server.rootToken).toBeTruthy();
    await server.close();
  });
});
