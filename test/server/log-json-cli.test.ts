/** `svc server -log-json`: the log on stderr is hclog's JSON, a line each; the banner stays text on stdout. */
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/http/client.js';
import { makeTempDir } from '../support/server.js';
import { running, spawnServer, stopServer } from '../support/spawn-server.js';
import { until } from '../support/wait.js';

let dir: string;
beforeAll(async () => {
  dir = await makeTempDir('svc-logjson-');
});
afterAll(async () => {
  await until(async () => running.size, (n) => n === 0, 'the servers to stop');
  await rm(dir, { recursive: true, force: true });
});

const records = (stderr: string) => stderr.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);

describe('svc server -log-json', () => {
  it('writes every log line as JSON, requests at debug with their request ID', async () => {
    const srv = await spawnServer(['-dev', '-port=0', '-client=false', '-log-json', '-log-level=debug'], { HOME: dir });
    try {
      expect(srv.stdout()).toContain('svc server started!');
      const client = new ApiClient({ address: srv.url, token: srv.rootToken });
      await client.secrets('GET', 'sys/mounts');
      const line = await until(
        async () => records(srv.stderr()).find((r) => r['@message'] === 'request complete' && r.path === '/v1/sys/mounts'),
        (r) => r !== undefined,
        'the request line',
      );
      expect(line).toMatchObject({ '@level': 'debug', '@module': 'http', method: 'GET', status: 200, request_id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
      expect(records(srv.stderr()).some((r) => r['@level'] === 'info' && String(r['@message']).includes('listening on'))).toBe(true);
      expect(srv.stderr()).not.toContain(srv.rootToken!);
    } finally {
      await stopServer(srv);
    }
  });

  it('takes log_json from the config file', async () => {
    const config = path.join(dir, 'json.hcl');
    await writeFile(config, 'log_json = true\n');
    const srv = await spawnServer(['-dev', '-port=0', '-client=false', `-config=${config}`], { HOME: dir });
    try {
      const listening = await until(async () => records(srv.stderr()).find((r) => String(r['@message']).includes('listening on')), (r) => r !== undefined, 'the listening line');
      expect(listening!['@level']).toBe('info');
    } finally {
      await stopServer(srv);
    }
  });
});
