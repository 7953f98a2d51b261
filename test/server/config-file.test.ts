/** The server configuration file's blocks (cloud, client, seal, audit, storage, server), in each format the file may be written in. */
import { describe, expect, it } from 'vitest';
import { configFiles } from '../support/config-files.js';

const { load } = configFiles('svc-config-');

describe('config file: cloud { allow_sha1 }', () => {
  it('reads it from HCL, YAML and JSON', async () => {
    expect((await load('a.hcl', 'cloud {\n  allow_sha1 = true\n}\n')).cloud).toEqual({ allowSha1: true });
    expect((await load('b.yaml', 'cloud:\n  allow_sha1: false\n')).cloud).toEqual({ allowSha1: false });
    expect((await load('c.json', '{"cloud": {"allow_sha1": true}}')).cloud).toEqual({ allowSha1: true });
  });

  it('leaves it unset when the block or the key is absent', async () => {
    expect((await load('d.hcl', 'port = 1\n')).cloud).toBeUndefined();
    expect((await load('e.hcl', 'cloud {\n}\n')).cloud).toEqual({ allowSha1: undefined });
  });

  it('refuses a value that is not a boolean, and unknown keys in the block', async () => {
    await expect(load('f.hcl', 'cloud {\n  allow_sha1 = "yes"\n}\n')).rejects.toThrow('"cloud.allow_sha1" must be true or false');
    await expect(load('g.hcl', 'cloud {\n  allow_md5 = true\n}\n')).rejects.toThrow('unknown setting "cloud.allow_md5" (known: allow_sha1)');
    await expect(load('h.yaml', 'cloud: true\n')).rejects.toThrow('"cloud" must be a block');
  });

  it('keeps the client block checks it had', async () => {
    expect((await load('i.hcl', 'client {\n  enabled = false\n  node_class = "gpu"\n}\n')).client).toEqual({ enabled: false, nodeClass: 'gpu', meta: undefined });
    await expect(load('j.hcl', 'client {\n  enabled = "no"\n}\n')).rejects.toThrow('"client.enabled" must be true or false');
    await expect(load('k.hcl', 'client {\n  node_class = 3\n}\n')).rejects.toThrow('"client.node_class" must be a string');
    await expect(load('l.hcl', 'client {\n  drivers = 1\n}\n')).rejects.toThrow('unknown setting "client.drivers"');
  });

  it('reads client.servers (for svc agent) as a list of strings', async () => {
    const servers = ['https://10.0.0.1:4646', 'https://10.0.0.2:4646'];
    expect((await load('cs1.hcl', `client {\n  servers = ${JSON.stringify(servers)}\n}\n`)).client?.servers).toEqual(servers);
    expect((await load('cs2.yaml', `client:\n  servers:\n    - ${servers[0]}\n`)).client?.servers).toEqual([servers[0]]);
    expect((await load('cs3.json', JSON.stringify({ client: { servers } }))).client?.servers).toEqual(servers);
    await expect(load('cs4.hcl', 'client {\n  servers = "https://10.0.0.1:4646"\n}\n')).rejects.toThrow('"client.servers" must be a list of server addresses');
    await expect(load('cs5.json', '{"client": {"servers": [4646]}}')).rejects.toThrow('"client.servers" must be a list of server addresses');
  });
});

describe('config file: seal { key_file } and audit { file }', () => {
  it('reads them from HCL, YAML and JSON', async () => {
    const hcl = await load('s1.hcl', 'seal {\n  key_file = "/etc/svc/seal.key"\n}\naudit {\n  file = "/var/log/svc/audit.log"\n}\n');
    expect(hcl.seal).toEqual({ keyFile: '/etc/svc/seal.key' });
    expect(hcl.audit).toEqual({ file: '/var/log/svc/audit.log' });
    const yaml = await load('s2.yaml', 'seal:\n  key_file: /k\naudit:\n  file: /a\n');
    expect([yaml.seal, yaml.audit]).toEqual([{ keyFile: '/k' }, { file: '/a' }]);
    const json = await load('s3.json', '{"seal": {"key_file": "/k"}, "audit": {"file": "/a"}}');
    expect([json.seal, json.audit]).toEqual([{ keyFile: '/k' }, { file: '/a' }]);
    expect((await load('s4.hcl', 'port = 1\n')).seal).toBeUndefined();
  });

  it('refuses values that are not strings, and unknown keys in the blocks', async () => {
    await expect(load('s5.hcl', 'seal {\n  key_file = 3\n}\n')).rejects.toThrow('"seal.key_file" must be a string');
    await expect(load('s6.hcl', 'audit {\n  file = true\n}\n')).rejects.toThrow('"audit.file" must be a string');
    await expect(load('s7.hcl', 'seal {\n  key = "x"\n}\n')).rejects.toThrow('unknown setting "seal.key" (known: key_file)');
    await expect(load('s8.hcl', 'audit {\n  path = "x"\n}\n')).rejects.toThrow('unknown setting "audit.path" (known: file)');
  });
});

describe('config file: storage "postgres" { url }', () => {
  it('reads it from HCL (a labelled block), YAML and JSON', async () => {
    const url = 'postgres://svc@db.internal/svc';
    expect((await load('p1.hcl', `storage "postgres" {\n  url = "${url}"\n}\n`)).storage).toEqual({ postgres: { url } });
    expect((await load('p2.yaml', `storage:\n  postgres:\n    url: ${url}\n`)).storage).toEqual({ postgres: { url } });
    expect((await load('p3.json', JSON.stringify({ storage: { postgres: { url } } }))).storage).toEqual({ postgres: { url } });
    expect((await load('p4.hcl', 'port = 1\n')).storage).toBeUndefined();
  });

  it('reads how long a write may stall and the leader lease, as durations of at least 1 s (the lease 2 s)', async () => {
    const url = 'postgres://svc@db.internal/svc';
    const block = (body: string) => `storage "postgres" {\n  url = "${url}"\n${body}}\n`;
    expect((await load('t1.hcl', block('  idle_in_transaction_timeout = "3s"\n  statement_timeout = "1m"\n  leader_lease = "2500ms"\n'))).storage).toEqual({
      postgres: { url, idleInTransactionMs: 3000, statementMs: 60_000, leaderLeaseMs: 2500 },
    });
    await expect(load('t2.hcl', block('  leader_lease = "1s"\n'))).rejects.toThrow('"storage.postgres.leader_lease" must be a duration of at least 2s, such as "5s"');
    await expect(load('t3.hcl', block('  statement_timeout = "soon"\n'))).rejects.toThrow('"storage.postgres.statement_timeout" must be a duration of at least 1s, such as "5s"');
    await expect(load('t4.hcl', block('  idle_in_transaction_timeout = 5\n'))).rejects.toThrow('"storage.postgres.idle_in_transaction_timeout" must be a string');
  });

  it('refuses another kind of storage, unknown keys, a missing or non-string url', async () => {
    await expect(load('p5.hcl', 'storage "mysql" {\n  url = "x"\n}\n')).rejects.toThrow('unknown setting "storage.mysql" (known: postgres)');
    await expect(load('p6.hcl', 'storage "postgres" {\n  address = "x"\n}\n')).rejects.toThrow('unknown setting "storage.postgres.address" (known: url, idle_in_transaction_timeout, statement_timeout, leader_lease)');
    await expect(load('p7.hcl', 'storage "postgres" {\n}\n')).rejects.toThrow('"storage.postgres" needs a url');
    await expect(load('p8.hcl', 'storage "postgres" {\n  url = 5\n}\n')).rejects.toThrow('"storage.postgres.url" must be a string');
    await expect(load('p9.yaml', 'storage:\n  postgres: yes\n')).rejects.toThrow('"storage.postgres" must be a block');
  });
});

describe('config file: server { min_heartbeat_ttl, heartbeat_grace, failover_heartbeat_ttl, advertise }', () => {
  it('reads Go durations as ms, and the advertised address, from HCL, YAML and JSON', async () => {
    const want = { minHeartbeatTtlMs: 2500, heartbeatGraceMs: 60_000, failoverHeartbeatTtlMs: 600_000, advertise: 'http://10.0.0.1:4646' };
    expect((await load('s1.hcl', 'server {\n  min_heartbeat_ttl = "2.5s"\n  heartbeat_grace = "1m"\n  failover_heartbeat_ttl = "10m"\n  advertise = "http://10.0.0.1:4646"\n}\n')).server).toEqual(want);
    expect((await load('s2.yaml', 'server:\n  min_heartbeat_ttl: 2500ms\n  heartbeat_grace: 1m\n  failover_heartbeat_ttl: 10m\n  advertise: http://10.0.0.1:4646\n')).server).toEqual(want);
    expect((await load('s3.json', JSON.stringify({ server: { min_heartbeat_ttl: '2.5s', heartbeat_grace: '60s', failover_heartbeat_ttl: '600s', advertise: 'http://10.0.0.1:4646' } }))).server).toEqual(want);
    expect((await load('s4.hcl', 'server {\n  heartbeat_grace = "5s"\n}\n')).server).toEqual({ heartbeatGraceMs: 5000 });
  });

  it('refuses a value that is not a positive duration, and unknown keys', async () => {
    await expect(load('s5.hcl', 'server {\n  heartbeat_grace = "soon"\n}\n')).rejects.toThrow('"server.heartbeat_grace" must be a positive duration such as "10s"');
    await expect(load('s6.hcl', 'server {\n  min_heartbeat_ttl = "0s"\n}\n')).rejects.toThrow('"server.min_heartbeat_ttl" must be a positive duration');
    await expect(load('s7.hcl', 'server {\n  min_heartbeat_ttl = 10\n}\n')).rejects.toThrow('"server.min_heartbeat_ttl" must be a string');
    await expect(load('s8.hcl', 'server {\n  bootstrap_expect = 3\n}\n')).rejects.toThrow('unknown setting "server.bootstrap_expect" (known: min_heartbeat_ttl, heartbeat_grace, failover_heartbeat_ttl, advertise, enable_event_broker, event_buffer_size)');
  });
});

describe('config file: HCL syntax', () => {
  it('cites the line and column of a syntax error', async () => {
    await expect(load('x1.hcl', 'port = 1\ndata_dir = \n')).rejects.toThrow(/^cannot parse config file .*x1\.hcl: line 2, column 12: Invalid expression/);
    await expect(load('x2.hcl', 'port = 1\nport = 2\n')).rejects.toThrow('line 2, column 1: Attribute redefined; The argument "port" was already set at line 1, column 1.');
  });

  it('keeps what is not a literal as its source text, as hcl2json did', async () => {
    expect((await load('x3.hcl', 'data_dir = foo\n')).dataDir).toBe('${foo}');
  });

  it('cites a syntax error deep in a block', async () => {
    const text = 'port = 1\nclient {\n  meta {\n    rack = "r1"\n    zone = \n  }\n}\n';
    await expect(load('x4.hcl', text)).rejects.toThrow(/^cannot parse config file .*x4\.hcl: line 5, column 12: Invalid expression/);
  });
});

describe('config file: JSON and YAML syntax', () => {
  it('cites the line and column of a JSON syntax error deep inside, in JSON.parse words', async () => {
    const text = '{\n  "port": 1,\n  "client": {\n    "meta": {\n      "rack": "r1"\n      "zone": "z"\n    }\n  }\n}\n';
    await expect(load('j1.json', text)).rejects.toThrow(
      /^cannot parse config file .*j1\.json: line 6, column 7: Expected ',' or '}' after property value in JSON at position 68$/,
    );
    await expect(load('j2.json', '{\n  "client": {"servers": ["a",]}\n}\n')).rejects.toThrow(/^cannot parse config file .*j2\.json: line 2, column 30: Unexpected token '\]'/);
  });

  it('reads JSON as JSON.parse does: the last of repeated keys wins', async () => {
    expect((await load('j3.json', '{"port": 1, "port": 2}')).port).toBe(2);
  });

  it("cites a YAML syntax error by the yaml package's line and column", async () => {
    await expect(load('y1.yaml', 'client:\n  meta:\n    rack: r1: x\n')).rejects.toThrow(
      /^cannot parse config file .*y1\.yaml: Nested mappings are not allowed in compact mappings at line 3, column 11:/,
    );
  });
});

describe('config file: log_json and log_format', () => {
  it("reads Nomad's log_json and Vault's log_format", async () => {
    expect((await load('lj.hcl', 'log_json = true\n')).logJson).toBe(true);
    expect((await load('lf.hcl', 'log_format = "json"\n')).logJson).toBe(true);
    expect((await load('ls.yaml', 'log_format: standard\n')).logJson).toBe(false);
    expect((await load('none.hcl', 'port = 1\n')).logJson).toBeUndefined();
  });

  it('refuses a wrong type, an unknown format, and the two disagreeing', async () => {
    await expect(load('lj-bad.hcl', 'log_json = "yes"\n')).rejects.toThrow('"log_json" must be true or false');
    await expect(load('lf-bad.hcl', 'log_format = "xml"\n')).rejects.toThrow('"log_format" must be "standard" or "json"');
    await expect(load('both.hcl', 'log_json = true\nlog_format = "standard"\n')).rejects.toThrow('"log_json" and "log_format" disagree');
  });
});
