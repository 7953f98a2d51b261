/** The server block's event stream settings: Nomad's enable_event_broker and event_buffer_size. */
import { describe, expect, it } from 'vitest';
import { configFiles } from '../support/config-files.js';
import { startInProcessServer } from '../support/in-process.js';

const { load } = configFiles('svc-config-events-');

describe('server { enable_event_broker, event_buffer_size }', () => {
  it('reads both from HCL and JSON, and leaves them unset when absent', async () => {
    expect((await load('a.hcl', 'server {\n  enable_event_broker = false\n  event_buffer_size = 250\n}\n')).server).toMatchObject({ enableEventBroker: false, eventBufferSize: 250 });
    expect((await load('b.json', '{"server": {"event_buffer_size": 0}}')).server).toMatchObject({ eventBufferSize: 0 });
    expect((await load('c.hcl', 'server {\n  heartbeat_grace = "5s"\n}\n')).server).toMatchObject({ enableEventBroker: undefined, eventBufferSize: undefined });
  });

  it('refuses a size that is not a whole number of 0 or more, and a switch that is not a boolean', async () => {
    await expect(load('d.hcl', 'server {\n  event_buffer_size = -1\n}\n')).rejects.toThrow('"server.event_buffer_size" must be a whole number of 0 or more');
    await expect(load('e.hcl', 'server {\n  event_buffer_size = "100"\n}\n')).rejects.toThrow('"server.event_buffer_size" must be a whole number');
    await expect(load('f.hcl', 'server {\n  event_buffer_size = 1.5\n}\n')).rejects.toThrow('"server.event_buffer_size" must be a whole number');
    await expect(load('g.hcl', 'server {\n  enable_event_broker = "yes"\n}\n')).rejects.toThrow('"server.enable_event_broker" must be true or false');
  });

  it('a server without the broker answers the stream 400, saying how it is configured', async () => {
    const srv = await startInProcessServer({ eventBufferSize: 0 });
    try {
      const answer = await srv.request('GET', '/v1/event/stream?topic=Job');
      expect(answer.status).toBe(400);
      expect(String(answer.body)).toContain('event stream is disabled');
      expect(srv.server.services.events).toBeUndefined();
    } finally {
      await srv.close();
    }
  });
});
