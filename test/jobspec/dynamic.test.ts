import { describe, expect, it } from 'vitest';
import { type ApiJob, parseJobspec, type ParseJobspecOptions } from '../../src/jobspec/index.js';

function firstGroup(job: ApiJob): Record<string, unknown> {
  return job.TaskGroups![0];
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

describe('dynamic blocks', () => {
  it('generates labelled blocks from a map with the default iterator name', async () => {
    const g = await parseGroup('    network {\n      dynamic "port" {\n        for_each = { http = 8080, admin = 0 }\n        labels = [port.key]\n        content {\n          static = port.value\n        }\n      }\n    }');
    expect(g.Networks).toEqual([{ ReservedPorts: [{ Label: 'http', Value: 8080 }], DynamicPorts: [{ Label: 'admin', Value: 0 }] }]);
  });

  it('generates groups from a variable with a named iterator', async () => {
    const job = await parseJobspec(`
variable "groups" {
  type    = list(string)
  default = ["a", "b"]
}
job "x" {
  dynamic "group" {
    for_each = var.groups
    iterator = g
    labels   = ["grp-\${g.value}"]
    content {
      count = g.key + 1
      task "t" {
        driver = "raw_exec"
        env {
          NAME = g.value
        }
      }
    }
  }
}
`);
    expect(job.TaskGroups!.map((g) => [g.Name, g.Count])).toEqual([
      ['grp-a', 1],
      ['grp-b', 2],
    ]);
    expect((job.TaskGroups![1].Tasks as Array<Record<string, unknown>>)[0].Env).toEqual({ NAME: 'b' });
  });

  it('checks the dynamic block itself and the generated content', async () => {
    expect(await errorOf(parseGroup('    dynamic "constraint" {\n      content {\n      }\n    }'))).toContain('missing required argument "for_each"');
    expect(await errorOf(parseGroup('    dynamic "constraint" {\n      for_each = [1]\n      content {\n        attribut = "x"\n      }\n    }'))).toContain('job "x" > group "g" > constraint: unsupported argument "attribut"');
  });
});
