/**
 * Servers sharing one PostgreSQL database, as real `bin/svc server` processes: the first makes the
 * keyring, which the others are given before their first start (a cluster's servers share it, as they
 * share the state it seals); and a call of either API on one of them, answered as parsed JSON or text.
 */
import { copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { spawnServer, type SpawnedServer } from './spawn-server.js';

export interface PgClusterOptions {
  /** the database's URL */
  url: string;
  /** where each server's data dir goes */
  dataDir: (name: string) => string;
  /** each server's flags beside its data dir and the database */
  args: (name: string) => string[];
  home: string;
}

export async function startPgCluster(names: readonly string[], opts: PgClusterOptions): Promise<SpawnedServer[]> {
  const start = (name: string) => spawnServer(['-data-dir', opts.dataDir(name), '-storage-url', opts.url, ...opts.args(name)], { HOME: opts.home });
  const servers = [await start(names[0])];
  for (const name of names.slice(1)) {
    await mkdir(opts.dataDir(name), { recursive: true, mode: 0o700 });
    await copyFile(path.join(opts.dataDir(names[0]), 'keyring.json'), path.join(opts.dataDir(name), 'keyring.json'));
    servers.push(await start(name));
  }
  return servers;
}

export interface ClusterAnswer {
  status: number;
  headers: Headers;
  // Tests read whatever fields the endpoint answers.
  body: any;
}

/** One request to `server` with the token in both sides' headers; the body JSON when it parses, else its text. */
export async function clusterApi(server: SpawnedServer, token: string, method: string, p: string, body?: unknown): Promise<ClusterAnswer> {
  const res = await fetch(server.url + p, { method, headers: { 'X-Nomad-Token': token, 'X-Vault-Token': token }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // a plain-text error
  }
  return { status: res.status, headers: res.headers, body: parsed };
}
