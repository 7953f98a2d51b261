/*
 * The harness's restart: PostgreSQL crashed (immediate shutdown) and started again on the same data
 * directory and port; what was committed before is there after, what a session had open is gone with it,
 * and stop() still removes the directory.
 */
import fs from 'node:fs';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createDatabase, startPostgres } from './postgres.js';

describe('startPostgres().restart()', () => {
  it('ends every session, keeps what was committed, answers on the same port, and stop() still cleans up', async () => {
    const server = await startPostgres();
    try {
      const url = await createDatabase(server.url, 'restart_me');
      const before = new pg.Client({ connectionString: url });
      const ended = new Promise<Error>((resolve) => before.on('error', resolve));
      await before.connect();
      await before.query('CREATE TABLE t (n int)');
      await before.query('INSERT INTO t VALUES (1)');
      await before.query('BEGIN');
      await before.query('INSERT INTO t VALUES (2)');
      const pid = fs.readFileSync(`${server.dir}/data/postmaster.pid`, 'utf8').split('\n')[0];

      await server.restart();

      expect((await ended).message).toMatch(/terminat|Connection/);
      expect(fs.readFileSync(`${server.dir}/data/postmaster.pid`, 'utf8').split('\n')[0]).not.toBe(pid);
      const after = new pg.Client({ connectionString: url });
      await after.connect();
      try {
        expect((await after.query<{ n: number }>('SELECT n FROM t ORDER BY n')).rows).toEqual([{ n: 1 }]);
      } finally {
        await after.end();
      }
      await before.end().catch(() => {});
    } finally {
      await server.stop();
    }
    expect(fs.existsSync(server.dir)).toBe(false);
  });
});
