import { parseJobspec, type ApiJob, type ParseJobspecOptions } from '../../src/jobspec/index.js';

/** Wraps an expression in a minimal job and returns the evaluated value of one meta-free attribute. */
export async function evalExpr(expr: string, prelude = ''): Promise<unknown> {
  const job = await parseJobspec(
    `${prelude}\njob "x" {\n  group "g" {\n    task "t" {\n      driver = "raw_exec"\n      config {\n        v = ${expr}\n      }\n    }\n  }\n}\n`,
    {},
  );
  return (firstTask(job).Config as Record<string, unknown>).v;
}

export function firstGroup(job: ApiJob): Record<string, unknown> {
  return job.TaskGroups![0];
}

export function firstTask(job: ApiJob): Record<string, unknown> {
  return (firstGroup(job).Tasks as Array<Record<string, unknown>>)[0];
}

export async function parseTask(taskBody: string, opts: ParseJobspecOptions = {}): Promise<Record<string, unknown>> {
  return firstTask(await parseJobspec(`job "x" {\n  group "g" {\n    task "t" {\n${taskBody}\n    }\n  }\n}\n`, opts));
}

export async function parseGroup(groupBody: string, opts: ParseJobspecOptions = {}): Promise<Record<string, unknown>> {
  return firstGroup(await parseJobspec(`job "x" {\n  group "g" {\n${groupBody}\n    task "t" {\n      driver = "raw_exec"\n    }\n  }\n}\n`, opts));
}

/** Resolves to the thrown error's message, failing the test when nothing is thrown. */
export async function errorOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('expected an error, but parsing succeeded');
}
