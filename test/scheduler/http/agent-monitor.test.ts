/**
 * GET /v1/agent/monitor with plain=true: the log lines alone, as text, with no StreamFrame around them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../support/server.js';
import { until } from '../../support/wait.js';

let srv: TestServer;

beforeAll(async () => {
  srv = await startTestServer({ client: false });
});
afterAll(async () => {
  await srv?.close();
});

const registerJob = (id: string) =>
  srv.client().scheduler('POST', '/v1/jobs', {
    body: { Job: { ID: id, Name: id, Type: 'batch', Datacenters: ['nowhere'], TaskGroups: [{ Name: 'g', Count: 1, Tasks: [{ Name: 't', Driver: 'raw_exec', Config: { command: '/bin/true' } }] }] } },
  });

describe('GET /v1/agent/monitor', () => {
  it('sends the lines alone as text/plain with plain=true', async () => {
    const abort = new AbortController();
    const res = await fetch(`${srv.url}/v1/agent/monitor?plain=true&log_level=debug`, { headers: { 'X-Svc-Token': srv.rootToken }, signal: abort.signal });
    try {
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
      let text = '';
      const reader = res.body!.getReader();
      const decoder = new TextDecoder();
      const reading = (async () => {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          text += decoder.decode(value, { stream: true });
        }
      })().catch(() => undefined);
      await until(
        async () => {
          await registerJob('monitored-plain');
          return text;
        },
        (t) => t.includes('job monitored-plain'),
        'the evaluation\'s debug line',
      );
      const line = text.split('\n').find((l) => l.includes('job monitored-plain'))!;
      expect(line).toMatch(/^\d{4}-\S+ \[DEBUG\] /);
      expect(text.startsWith('{')).toBe(false);
      abort.abort();
      await reading;
    } finally {
      abort.abort();
    }
  });
});
