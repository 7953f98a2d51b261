import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/shared/errors.js';
import { type ApiJob, JobspecError, parseGoDurationNs, parseJobspec, type ParseJobspecOptions } from '../../src/jobspec/index.js';

function firstGroup(job: ApiJob): Record<string, unknown> {
  return job.TaskGroups![0];
}

function firstTask(job: ApiJob): Record<string, unknown> {
  return (firstGroup(job).Tasks as Array<Record<string, unknown>>)[0];
}

async function parseTask(taskBody: string, opts: ParseJobspecOptions = {}): Promise<Record<string, unknown>> {
  return firstTask(await parseJobspec(`job "x" {\n  group "g" {\n    task "t" {\n${taskBody}\n    }\n  }\n}\n`, opts));
}

async function parseGroup(groupBody: string, opts: ParseJobspecOptions = {}): Promise<Record<string, unknown>> {
  return firstGroup(await parseJobspec(`job "x" {\n  group "g" {\n${groupBody}\n    task "t" {\n      driver = "raw_exec"\n    }\n  }\n}\n`, opts));
}

/** Resolves to the thrown error's message, failing the test when nothing is thrown. */
async function errorOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('expected an error, but parsing succeeded');
}

const example = (name: string): string => readFileSync(new URL(`../../examples/jobs/${name}`, import.meta.url), 'utf8');

describe('example jobs', () => {
  it('maps the raw_exec batch job', async () => {
    const job = await parseJobspec(example('hello.nomad.hcl'), { filename: 'hello.nomad.hcl' });
    expect(job).toMatchObject({ ID: 'hello', Name: 'hello', Type: 'batch', Datacenters: ['*'] });
    expect(job.TaskGroups).toHaveLength(1);
    expect(firstGroup(job).Name).toBe('hello');
    expect(firstTask(job)).toEqual({
      Name: 'say',
      Driver: 'raw_exec',
      Config: { command: '/bin/echo', args: ['hello from ${NOMAD_JOB_NAME} in alloc ${NOMAD_ALLOC_ID}'] },
      Resources: { CPU: 50, MemoryMB: 32 },
    });
  });

  it('maps the service job: ports, service, check, update, restart, template, logs', async () => {
    const job = await parseJobspec(example('web.nomad.hcl'));
    expect(job).toMatchObject({ ID: 'web', Type: 'service', Priority: 60, Meta: { team: 'platform' } });
    expect(job.Constraints).toEqual([{ LTarget: '${attr.kernel.name}', RTarget: 'linux', Operand: '=' }]);
    expect(job.Update).toEqual({ MaxParallel: 1, MinHealthyTime: 10e9, HealthyDeadline: 180e9, AutoRevert: true });
    const g = firstGroup(job);
    expect(g.Count).toBe(2);
    expect(g.Networks).toEqual([{ DynamicPorts: [{ Label: 'http' }, { Label: 'admin' }] }]);
    expect(g.RestartPolicy).toEqual({ Attempts: 3, Interval: 300e9, Delay: 15e9, Mode: 'delay' });
    expect(g.Services).toEqual([
      {
        Name: 'web-frontend',
        Provider: 'nomad',
        PortLabel: 'http',
        Tags: ['web', 'v1'],
        Checks: [{ Type: 'http', Path: '/', Interval: 10e9, Timeout: 2e9 }],
      },
    ]);
    const t = firstTask(job);
    expect(t.Env).toEqual({ PYTHONUNBUFFERED: '1', NODE_ID: '${node.unique.id}', RACK: '${meta.rack}' });
    expect(t.KillTimeout).toBe(20e9);
    expect(t.LogConfig).toEqual({ MaxFiles: 5, MaxFileSizeMB: 15 });
    expect(t.Templates).toEqual([
      {
        DestPath: 'local/config.env',
        Envvars: true,
        EmbeddedTmpl: 'GREETING=hello\nPORT={{ env "NOMAD_PORT_http" }}\n',
        ChangeMode: 'restart',
        Perms: '0644',
        Splay: 5e9,
        ErrMissingKey: false,
      },
    ]);
  });
});

describe('durations', () => {
  it.each([
    ['10s', 10e9],
    ['1h30m', 5400e9],
    ['1.5h', 5400e9],
    ['300ms', 300e6],
    ['2us', 2000],
    ['0', 0],
  ])('%s → ns', (text, ns) => {
    expect(parseGoDurationNs(text)).toBe(ns);
  });

  it('rejects non-durations', () => {
    expect(parseGoDurationNs('10')).toBeUndefined();
    expect(parseGoDurationNs('1d')).toBeUndefined();
    expect(parseGoDurationNs('abc')).toBeUndefined();
  });

  it('maps duration fields to nanoseconds and keeps numbers as nanoseconds', async () => {
    const g = await parseGroup('    shutdown_delay = "5s"\n    max_run_duration = 1000\n    reschedule {\n      delay = "30s"\n      max_delay = "1h"\n      unlimited = "true"\n    }');
    expect(g.ShutdownDelay).toBe(5e9);
    expect(g.MaxRunDuration).toBe(1000);
    // jobspec2 converts leniently: a real upstream job sets unlimited = "true".
    expect(g.ReschedulePolicy).toEqual({ Delay: 30e9, MaxDelay: 3600e9, Unlimited: true });
  });

  it('names the argument when a duration is invalid', async () => {
    const msg = await errorOf(parseGroup('    shutdown_delay = "5 seconds"'));
    expect(msg).toContain('job "x" > group "g": argument "shutdown_delay" must be a duration');
  });
});

describe('block mapping', () => {
  it('maps network modes, static/dynamic ports with to and host_network', async () => {
    const g = await parseGroup('    network {\n      mode = "bridge"\n      port "db" {\n        to = 5432\n      }\n      port "metrics" {\n        static = 9100\n        host_network = "private"\n      }\n      dns {\n        servers = ["1.1.1.1"]\n      }\n    }');
    expect(g.Networks).toEqual([
      { Mode: 'bridge', ReservedPorts: [{ Label: 'metrics', Value: 9100, HostNetwork: 'private' }], DynamicPorts: [{ Label: 'db', To: 5432 }], DNS: { Servers: ['1.1.1.1'] } },
    ]);
  });

  it('maps resources with renames and devices', async () => {
    const t = await parseTask('      driver = "raw_exec"\n      resources {\n        cpu = 500\n        memory = 256\n        memory_max = 512\n        disk = 100\n        device "nvidia/gpu" {\n          count = 2\n        }\n      }');
    expect(t.Resources).toEqual({ CPU: 500, MemoryMB: 256, MemoryMaxMB: 512, DiskMB: 100, Devices: [{ Name: 'nvidia/gpu', Count: 2 }] });
  });

  it('maps constraint shorthands and affinity/spread', async () => {
    const g = await parseGroup(
      '    constraint {\n      distinct_hosts = true\n    }\n    constraint {\n      distinct_property = "${meta.rack}"\n      value = "2"\n    }\n    constraint {\n      attribute = "${attr.os.version}"\n      version = ">= 1.0"\n    }\n    affinity {\n      attribute = "${node.datacenter}"\n      value = "dc1"\n      weight = 80\n    }\n    spread {\n      attribute = "${node.datacenter}"\n      target "dc1" {\n        percent = 70\n      }\n    }',
    );
    expect(g.Constraints).toEqual([
      { Operand: 'distinct_hosts', RTarget: 'true' },
      { RTarget: '2', Operand: 'distinct_property', LTarget: '${meta.rack}' },
      { LTarget: '${attr.os.version}', Operand: 'version', RTarget: '>= 1.0' },
    ]);
    expect(g.Affinities).toEqual([{ LTarget: '${node.datacenter}', RTarget: 'dc1', Weight: 80, Operand: '=' }]);
    expect(g.Spreads).toEqual([{ Attribute: '${node.datacenter}', SpreadTarget: [{ Value: 'dc1', Percent: 70 }] }]);
  });

  it('accepts meta and env as blocks or maps, converting values to strings', async () => {
    const t = await parseTask('      driver = "raw_exec"\n      meta = { "a.b" = 1, c = true }\n      env {\n        PORT = 8080\n      }');
    expect(t.Meta).toEqual({ 'a.b': '1', c: 'true' });
    expect(t.Env).toEqual({ PORT: '8080' });
  });

  it('keeps driver config as a lower-case map with nested blocks as lists', async () => {
    const t = await parseTask('      driver = "docker"\n      config {\n        image = "redis:7"\n        ports = ["db"]\n        mount {\n          type = "bind"\n          target = "/data"\n        }\n        labels = { app_name = "x" }\n      }');
    expect(t.Config).toEqual({ image: 'redis:7', ports: ['db'], mount: [{ type: 'bind', target: '/data' }], labels: { app_name: 'x' } });
  });

  it('maps lifecycle, artifact, restart, dispatch_payload, identity and actions', async () => {
    const t = await parseTask(
      '      driver = "raw_exec"\n      lifecycle {\n        hook = "prestart"\n        sidecar = false\n      }\n      artifact {\n        source = "https://example.com/app.tgz"\n        destination = "local/app"\n        options {\n          checksum = "sha256:abc"\n        }\n      }\n      restart {\n        attempts = 1\n      }\n      dispatch_payload {\n        file = "input.json"\n      }\n      identity {\n        env = true\n      }\n      identity {\n        name = "vault"\n        aud = ["vault.io"]\n        ttl = "1h"\n      }\n      action "hello" {\n        command = "/bin/echo"\n        args = ["hi"]\n      }',
    );
    expect(t.Lifecycle).toEqual({ Hook: 'prestart', Sidecar: false });
    expect(t.Artifacts).toEqual([{ GetterSource: 'https://example.com/app.tgz', RelativeDest: 'local/app', GetterOptions: { checksum: 'sha256:abc' } }]);
    expect(t.RestartPolicy).toEqual({ Attempts: 1 });
    expect(t.DispatchPayload).toEqual({ File: 'input.json' });
    expect(t.Identity).toEqual({ Env: true });
    expect(t.Identities).toEqual([{ Name: 'vault', Audience: ['vault.io'], TTL: 3600e9 }]);
    expect(t.Actions).toEqual([{ Name: 'hello', Command: '/bin/echo', Args: ['hi'] }]);
  });

  it('merges a service-level check_restart into its checks', async () => {
    const g = await parseGroup('    service {\n      port = "http"\n      check_restart {\n        limit = 3\n        grace = "10s"\n      }\n      check {\n        type = "tcp"\n        interval = "5s"\n        timeout = "1s"\n      }\n    }');
    expect((g.Services as Array<Record<string, unknown>>)[0].Checks).toEqual([{ Type: 'tcp', Interval: 5e9, Timeout: 1e9, CheckRestart: { Limit: 3, Grace: 10e9 } }]);
  });

  it('maps volumes as a map keyed by name and scaling min as the default count', async () => {
    const g = await parseGroup('    volume "data" {\n      type = "host"\n      source = "data"\n      read_only = true\n    }\n    scaling {\n      min = 2\n      max = 5\n    }');
    expect(g.Volumes).toEqual({ data: { Name: 'data', Type: 'host', Source: 'data', ReadOnly: true } });
    expect(g.Count).toBe(2);
  });

  it('maps periodic, parameterized and job-level reschedule', async () => {
    const job = await parseJobspec(
      'job "cron" {\n  type = "batch"\n  periodic {\n    crons = ["*/5 * * * *"]\n    prohibit_overlap = true\n  }\n  parameterized {\n    payload = "required"\n    meta_required = ["x"]\n  }\n  reschedule {\n    attempts = 0\n  }\n}\n',
    );
    expect(job.Periodic).toEqual({ Specs: ['*/5 * * * *'], ProhibitOverlap: true, SpecType: 'cron' });
    expect(job.ParameterizedJob).toEqual({ Payload: 'required', MetaRequired: ['x'] });
    expect(job.Reschedule).toEqual({ Attempts: 0 });
  });

  it('wraps job-level tasks in groups of one placed first, and copies job vault to tasks', async () => {
    const job = await parseJobspec(
      'job "x" {\n  vault {\n    policies = ["p"]\n  }\n  group "later" {\n    task "b" {\n      driver = "raw_exec"\n    }\n  }\n  task "solo" {\n    driver = "raw_exec"\n  }\n}\n',
    );
    expect(job.TaskGroups!.map((g) => g.Name)).toEqual(['solo', 'later']);
    expect(job.TaskGroups![0]).toMatchObject({ Name: 'solo', Count: 1, Tasks: [{ Name: 'solo', Driver: 'raw_exec' }] });
    for (const g of job.TaskGroups!) {
      expect((g.Tasks as Array<Record<string, unknown>>)[0].Vault).toEqual({ Policies: ['p'], Env: true, DisableFile: false, ChangeMode: 'restart' });
    }
  });

  it('lets id override the label while the label stays the name', async () => {
    const job = await parseJobspec('job "label" {\n  id = "real-id"\n}\n');
    expect(job).toMatchObject({ ID: 'real-id', Name: 'label' });
  });
});

describe('schema errors name the path', () => {
  it('rejects an unknown argument in a task', async () => {
    const err = await parseJobspec('job "x" {\n  group "web" {\n    task "t" {\n      driverr = "raw_exec"\n    }\n  }\n}\n').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toContain('job "x" > group "web" > task "t": unsupported argument "driverr"');
    expect((err as Error).message).toContain('job.nomad.hcl:4:7');
  });

  it('rejects unknown blocks at each level', async () => {
    expect(await errorOf(parseJobspec('job "x" {\n  grup "a" {\n  }\n}\n'))).toContain('job "x": unsupported block type "grup"');
    expect(await errorOf(parseGroup('    network {\n      port "a" {\n        statik = 1\n      }\n    }'))).toContain('job "x" > group "g" > network > port "a": unsupported argument "statik"');
    expect(await errorOf(parseJobspec('foo {\n}\njob "x" {\n}\n'))).toContain('Unsupported block type "foo" at the top level');
  });

  it('rejects duplicate singleton blocks, duplicate names and wrong label counts', async () => {
    expect(await errorOf(parseGroup('    update {\n    }\n    update {\n    }'))).toContain('only one "update" block is allowed');
    expect(await errorOf(parseJobspec('job "x" {\n  group "a" {\n  }\n  group "a" {\n  }\n}\n'))).toContain('duplicate group "a" block');
    expect(await errorOf(parseJobspec('job "x" {\n  group {\n  }\n}\n'))).toContain('block "group" needs exactly 1 label');
  });

  it('rejects wrongly typed values', async () => {
    expect(await errorOf(parseGroup('    count = "many"'))).toContain('job "x" > group "g": argument "count" must be a number, got string "many" (job.nomad.hcl:3:5)');
    expect(await errorOf(parseJobspec('job "x" {\n  datacenters = "dc1"\n}\n'))).toContain('argument "datacenters" must be a list of strings');
  });

  it('requires exactly one job block', async () => {
    expect(await errorOf(parseJobspec('locals {\n}\n'))).toContain('Missing job block');
    expect(await errorOf(parseJobspec('job "a" {\n}\njob "b" {\n}\n'))).toMatch(/:3:1: Duplicate job block/);
  });
});

describe('syntax errors carry file:line:column', () => {
  it.each([
    ['job "x" {\n  name = \n}\n', 'web.hcl:2:10'],
    ['job "x" {\n  group "g" {\n    count = 1 +\n  }\n}\n', 'web.hcl:3:16'],
    ['job "x" {\n  name = "unterminated\n}\n', 'web.hcl:2:10'],
    ['job "x" {\n  group "g" {\n', 'web.hcl:3:1'],
    ['job "x" {\n  a = 1 b = 2\n}\n', 'web.hcl:2:9'],
  ])('%j', async (src, where) => {
    const err = await parseJobspec(src, { filename: 'web.hcl' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(JobspecError);
    expect((err as Error).message.startsWith(where + ':')).toBe(true);
    expect((err as JobspecError).pos?.line).toBe(Number(where.split(':')[1]));
  });
});

describe('JSON jobspecs', () => {
  it('accepts API JSON with a Job key or a bare job and returns it unchanged', async () => {
    const api = { ID: 'j', Name: 'j', TaskGroups: [{ Name: 'g', Tasks: [{ Name: 't', Driver: 'raw_exec' }] }] };
    expect(await parseJobspec(JSON.stringify({ Job: api }))).toEqual(api);
    expect(await parseJobspec(JSON.stringify(api))).toEqual(api);
    expect(await errorOf(parseJobspec(JSON.stringify({ Job: api }), { variables: { a: '1' } }))).toContain('cannot use variables with JSON files');
  });

  it('maps HCL-JSON like the native syntax, evaluating templates and keeping runtime references', async () => {
    const hclJson = {
      variable: { dc: { type: 'list(string)', default: ['dc1'] } },
      locals: { tag: '${upper("v1")}' },
      job: {
        web: {
          datacenters: '${var.dc}',
          meta: { tag: '${local.tag}' },
          group: {
            g: {
              count: 2,
              network: { port: { http: { static: 8080 } } },
              task: {
                t: {
                  driver: 'raw_exec',
                  config: { command: '/bin/sh', args: ['-c', 'echo ${NOMAD_PORT_http}'] },
                  resources: { cpu: 100, memory: 64 },
                  kill_timeout: '3s',
                },
              },
            },
          },
        },
      },
    };
    const job = await parseJobspec(JSON.stringify(hclJson), { variables: { dc: '["east"]' } });
    expect(job).toMatchObject({ ID: 'web', Name: 'web', Datacenters: ['east'], Meta: { tag: 'V1' } });
    const g = firstGroup(job);
    expect(g.Count).toBe(2);
    expect(g.Networks).toEqual([{ ReservedPorts: [{ Label: 'http', Value: 8080 }] }]);
    expect(firstTask(job)).toEqual({
      Name: 't',
      Driver: 'raw_exec',
      Config: { command: '/bin/sh', args: ['-c', 'echo ${NOMAD_PORT_http}'] },
      Resources: { CPU: 100, MemoryMB: 64 },
      KillTimeout: 3e9,
    });
  });

  it('reports HCL-JSON evaluation errors by file name, without invented line numbers', async () => {
    const err = await parseJobspec(JSON.stringify({ job: { x: { name: '${var.nope}' } } }), { filename: 'job.json' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(JobspecError);
    expect((err as Error).message).toMatch(/^job\.json: Reference to undeclared input variable "var\.nope"/);
    expect((err as JobspecError).pos).toBeUndefined();
  });

  it('rejects unknown keys in HCL-JSON with their path', async () => {
    const msg = await errorOf(parseJobspec(JSON.stringify({ job: { x: { group: { g: { cuont: 1 } } } } })));
    expect(msg).toContain('job "x" > group "g": unsupported argument "cuont"');
  });
});
