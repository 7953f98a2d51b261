import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type ApiJob, parseJobspec, type ParseJobspecOptions } from '../../src/jobspec/index.js';

function firstGroup(job: ApiJob): Record<string, unknown> {
  return job.TaskGroups![0];
}

function firstTask(job: ApiJob): Record<string, unknown> {
  return (firstGroup(job).Tasks as Array<Record<string, unknown>>)[0];
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

const SRC = `
variable "who" {
  type    = string
  default = "default"
}
job "x" {
  meta = { who = var.who }
  group "g" {
    task "t" {
      driver = "raw_exec"
    }
  }
}
`;

async function who(opts: ParseJobspecOptions): Promise<unknown> {
  return ((await parseJobspec(SRC, opts)).Meta as Record<string, unknown>).who;
}

describe('variable sources and precedence', () => {
  it('uses the default when nothing else is given', async () => {
    expect(await who({})).toBe('default');
  });

  it('takes NOMAD_VAR_ env over the default, and SVC_VAR_ over NOMAD_VAR_', async () => {
    expect(await who({ env: { NOMAD_VAR_who: 'env' } })).toBe('env');
    expect(await who({ env: { NOMAD_VAR_who: 'nomad', SVC_VAR_who: 'svc' } })).toBe('svc');
  });

  it('takes var files over env, later files over earlier ones', async () => {
    const env = { NOMAD_VAR_who: 'env' };
    expect(await who({ env, varFiles: [{ name: 'a.vars', content: 'who = "file-a"\n' }] })).toBe('file-a');
    expect(await who({ env, varFiles: [{ name: 'a.vars', content: 'who = "file-a"' }, { name: 'b.json', content: '{"who": "file-b"}' }] })).toBe('file-b');
  });

  it('takes -var over everything', async () => {
    expect(await who({ env: { NOMAD_VAR_who: 'env' }, varFiles: [{ name: 'a.vars', content: 'who = "file"' }], variables: { who: 'flag' } })).toBe('flag');
  });

  it('ignores env entries for undeclared variables but rejects undeclared -var and var-file names', async () => {
    expect(await who({ env: { NOMAD_VAR_other: 'x' } })).toBe('default');
    expect(await errorOf(parseJobspec(SRC, { variables: { nope: '1' } }))).toContain('Undefined -var variable "nope"');
    expect(await errorOf(parseJobspec(SRC, { varFiles: [{ name: 'v.hcl', content: 'nope = 1\n' }] }))).toMatch(/v\.hcl:1:1: Undefined variable "nope"/);
  });

  it('rejects variable blocks inside a var file', async () => {
    expect(await errorOf(parseJobspec(SRC, { varFiles: [{ name: 'v.hcl', content: 'variable "who" {}\n' }] }))).toContain('Variable declaration in a var file');
  });

  it('names a required variable that has no value', async () => {
    const msg = await errorOf(parseJobspec('variable "image" {\n  type = string\n}\njob "x" {\n}\n'));
    expect(msg).toContain('Unset variable "image"');
    expect(msg).toContain(':1:1');
  });
});

describe('variable types', () => {
  const typed = `
variable "n" {
  type    = number
  default = 1
}
variable "b" {
  type    = bool
  default = false
}
variable "l" {
  type    = list(string)
  default = []
}
variable "m" {
  type    = map(number)
  default = {}
}
job "x" {
  group "g" {
    count = var.n
    task "t" {
      driver = "raw_exec"
      config {
        b = var.b
        l = var.l
        m = var.m
      }
    }
  }
}
`;

  it('parses -var and env values according to the declared type', async () => {
    const job = await parseJobspec(typed, { variables: { n: '3', b: 'true', l: '["a", "b"]' }, env: { NOMAD_VAR_m: '{ x = 1, y = "2" }' } });
    expect(job.TaskGroups![0].Count).toBe(3);
    expect(firstTask(job).Config).toEqual({ b: true, l: ['a', 'b'], m: { x: 1, y: 2 } });
  });

  it('converts numbers to strings for string variables', async () => {
    expect(await who({ varFiles: [{ name: 'v.hcl', content: 'who = 42' }] })).toBe('42');
  });

  it('rejects values that do not match the type, naming the variable and the source', async () => {
    expect(await errorOf(parseJobspec(typed, { variables: { n: 'many' } }))).toMatch(/Invalid value for variable "n" from -var n: number required/);
    expect(await errorOf(parseJobspec(typed, { variables: { b: 'yes' } }))).toMatch(/variable "b".*bool required/);
    expect(await errorOf(parseJobspec(typed, { varFiles: [{ name: 'v.hcl', content: 'l = "a"' }] }))).toMatch(/variable "l" from var file v\.hcl: list\(string\) required, got string/);
    expect(await errorOf(parseJobspec(typed, { variables: { m: '{ x = "one" }' } }))).toMatch(/variable "m".*element "x": number required/);
  });

  it('checks defaults against the type', async () => {
    expect(await errorOf(parseJobspec('variable "n" {\n  type = number\n  default = "x"\n}\njob "x" {\n}\n'))).toContain('Invalid default value for variable "n"');
  });

  it('runs validation blocks', async () => {
    const src = 'variable "n" {\n  type = number\n  default = 1\n  validation {\n    condition = var.n > 0\n    error_message = "n must be positive"\n  }\n}\njob "x" {\n}\n';
    expect(await errorOf(parseJobspec(src, { variables: { n: '-1' } }))).toContain('n must be positive');
    await expect(parseJobspec(src, { variables: { n: '2' } })).resolves.toMatchObject({ ID: 'x' });
  });

  it('accepts a variables block of untyped defaults', async () => {
    const job = await parseJobspec('variables {\n  dc = "dc9"\n}\njob "x" {\n  datacenters = [var.dc]\n}\n');
    expect(job.Datacenters).toEqual(['dc9']);
  });
});

describe('locals', () => {
  it('evaluates locals in dependency order, across blocks and regardless of declaration order', async () => {
    const job = await parseJobspec(`
locals {
  c = "\${local.b}-c"
}
variable "a" {
  default = "a"
}
locals {
  b = "\${local.a2}-b"
  a2 = upper(var.a)
}
job "x" {
  name = local.c
}
`);
    expect(job.Name).toBe('A-b-c');
  });

  it('reports cycles and unknown locals', async () => {
    expect(await errorOf(parseJobspec('locals {\n  a = local.b\n  b = local.a\n}\njob "x" {\n}\n'))).toContain('Cycle in local values');
    expect(await errorOf(parseJobspec('job "x" {\n  name = local.nope\n}\n'))).toContain('undeclared local value "local.nope"');
  });

  it('evaluates the example job with variables and locals', async () => {
    const src = readFileSync(new URL('../../examples/jobs/vars.nomad.hcl', import.meta.url), 'utf8');
    const job = await parseJobspec(src, { variables: { image_tag: '1.4.0', replicas: '2' }, env: { NOMAD_VAR_region: 'eu' } });
    expect(job).toMatchObject({ ID: 'api', Name: 'api-1.4.0', Region: 'eu', Datacenters: ['dc1', 'dc2'], Meta: { owner: 'ops', version: '1.4.0' } });
    expect(job.TaskGroups![0].Count).toBe(4);
    expect(firstTask(job).Config).toEqual({ command: '/bin/sh', args: ['-c', 'echo "api $VERSION, tags $TAGS, port ${NOMAD_PORT_http}"; exec sleep 3600'] });
    expect(firstTask(job).Env).toEqual({ VERSION: '1.4.0', TAGS: 'DC1,DC2', DEBUG: 'false' });
    expect(await errorOf(parseJobspec(src, {}))).toContain('Unset variable "image_tag"');
  });
});
