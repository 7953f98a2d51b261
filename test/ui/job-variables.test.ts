/**
 * The run page's variables textarea as the variable file POST /v1/jobs/parse reads: what a user types
 * reaches the job as they typed it, template openers included, and a line that is no assignment is
 * refused by its number.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessServer, type InProcessServer } from '../support/in-process.js';
import { errorPosition, variablesFile } from '../../src/ui/pages/job-variables.js';

const JOB = `variable "v" {
  type = string
}

job "vars" {
  datacenters = ["dc1"]
  meta {
    v = var.v
  }
  group "g" {
    task "t" {
      driver = "raw_exec"
      config {
        command = "/bin/true"
      }
    }
  }
}
`;

let srv: InProcessServer;
beforeAll(async () => {
  srv = await startInProcessServer();
});
afterAll(async () => {
  await srv?.close();
});

async function parsedMeta(variables: string): Promise<string> {
  const answer = await srv.request('POST', '/v1/jobs/parse', { body: { JobHCL: JOB, Variables: variablesFile(variables), Canonicalize: true } });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return (answer.body as { Meta: Record<string, string> }).Meta.v;
}

describe('variablesFile', () => {
  it('keeps ${ and %{ in a value literal', async () => {
    expect(variablesFile('v=a${b}')).toBe('v = "a$${b}"');
    expect(await parsedMeta('v=a${b}')).toBe('a${b}');
    expect(await parsedMeta('v=%{ if true }x%{ endif } $${c}')).toBe('%{ if true }x%{ endif } $${c}');
  });

  it('keeps quotes, backslashes and the text after a second = in a value', async () => {
    expect(await parsedMeta('v = say "hi" \\ k=v')).toBe('say "hi" \\ k=v');
  });

  it('keeps the textarea line numbers and refuses a line that is no assignment by its number', () => {
    expect(variablesFile('# note\n\nv=1').split('\n')).toEqual(['', '', 'v = "1"']);
    expect(() => variablesFile('v=1\nnot an assignment')).toThrow('Variables line 2: expected name=value, got "not an assignment"');
  });

  it('reads the file, line and column of a parse error', () => {
    expect(errorPosition('variables.hcl:3:5: Invalid expression')).toEqual({ file: 'variables.hcl', line: 3, column: 5 });
    expect(errorPosition('no position here')).toBeUndefined();
  });
});
