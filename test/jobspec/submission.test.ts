import { describe, expect, it } from 'vitest';
import { buildJobSubmission } from '../../src/jobspec/index.js';

const SRC = 'variable "tag" {\n  type = string\n}\nvariable "dcs" {\n  type = list(string)\n}\njob "x" {\n}\n';

describe('job submission', () => {
  it('splits simple -var/env values into VariableFlags and renders complex ones into Variables', () => {
    const sub = buildJobSubmission(SRC, {
      variables: { tag: 'v2', dcs: '["a"]' },
      env: { NOMAD_VAR_tag: 'from-env', NOMAD_VAR_other: 'o', PATH: '/bin' },
      varFiles: [
        { name: 'a.vars', content: 'tag = "a"' },
        { name: 'b.vars', content: 'tag = "b"' },
      ],
    });
    expect(sub).toEqual({
      Source: SRC,
      Format: 'hcl2',
      VariableFlags: { tag: 'v2', other: 'o' },
      Variables: 'tag = "a"\n\ntag = "b"\n\ndcs = ["a"]\n',
    });
  });

  it('marks JSON sources', () => {
    expect(buildJobSubmission('{"Job": {}}').Format).toBe('json');
  });
});
