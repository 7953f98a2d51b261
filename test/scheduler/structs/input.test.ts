import { describe, expect, it } from 'vitest';
import { UserError } from '../../../src/shared/errors.js';
import { validateJobInput } from '../../../src/scheduler/structs/index.js';

function base(): Record<string, unknown> {
  return { ID: 'web', TaskGroups: [{ Name: 'g', Tasks: [{ Name: 't', Driver: 'raw_exec', Config: { command: 'x' } }] }] };
}

function rejection(input: unknown): UserError {
  try {
    validateJobInput(input);
  } catch (e) {
    expect(e).toBeInstanceOf(UserError);
    return e as UserError;
  }
  throw new Error('expected validateJobInput to throw');
}

describe('validateJobInput', () => {
  it('accepts a well-formed job, any key casing, nulls, and duration strings', () => {
    expect(() => validateJobInput(base())).not.toThrow();
    expect(() => validateJobInput({ id: 'x', taskGroups: [{ name: 'g', count: 2 }] })).not.toThrow();
    expect(() => validateJobInput({ ...base(), Priority: null, Meta: null })).not.toThrow();
    expect(() => validateJobInput({ ...base(), Update: { Stagger: '30s', MinHealthyTime: 10_000_000_000 } })).not.toThrow();
  });

  it('accepts the server shape, so an inspected job can be submitted again', () => {
    const server = { ...base(), Status: 'running', Version: 3, SubmitTime: 1_700_000_000_000_000_000, CreateIndex: 10, Stable: true, NomadTokenID: '' };
    expect(() => validateJobInput(server)).not.toThrow();
  });

  it('accepts removed fields that job files in the wild still carry', () => {
    expect(() => validateJobInput({ ...base(), VaultToken: '', ConsulToken: '' })).not.toThrow();
    const job = base();
    ((job.TaskGroups as Record<string, unknown>[])[0].Tasks as Record<string, unknown>[])[0].Resources = { CPU: 100, IOPS: 0 };
    expect(() => validateJobInput(job)).not.toThrow();
  });

  it('rejects a job that is not an object', () => {
    expect(rejection('job "x" {}').message).toMatch(/^Job: expected a JSON object, got string/);
    expect(rejection([base()]).message).toBe('Job: expected a JSON object, got a list');
    expect(rejection(null).message).toBe('Job: expected a JSON object, got null');
  });

  it('names every unknown top-level field', () => {
    const e = rejection({ ...base(), Foo: 1, bar: 2 });
    expect(e.message).toBe('Job: unknown fields "Foo", "bar"');
    expect(e.statusCode).toBe(400);
  });

  it('names a scalar of the wrong type', () => {
    expect(rejection({ ...base(), Priority: 'high' }).message).toBe('Job.Priority: expected an integer, got string "high"');
    expect(rejection({ ...base(), Priority: 1.5 }).message).toBe('Job.Priority: expected an integer, got number 1.5');
    expect(rejection({ ...base(), AllAtOnce: 'yes' }).message).toBe('Job.AllAtOnce: expected a boolean, got string "yes"');
    expect(rejection({ ...base(), Region: 7 }).message).toBe('Job.Region: expected a string, got number 7');
  });

  it('names a string where an object or list is expected, with its path', () => {
    expect(rejection({ ...base(), TaskGroups: 'web' }).message).toBe('Job.TaskGroups: expected a list of objects, got string "web"');
    expect(rejection({ ...base(), Update: 'rolling' }).message).toBe('Job.Update: expected an object, got string "rolling"');
    expect(rejection({ ...base(), TaskGroups: ['web'] }).message).toBe('Job.TaskGroups[0]: expected an object, got string "web"');
    expect(rejection({ ...base(), Datacenters: 'dc1' }).message).toBe('Job.Datacenters: expected a list of strings, got string "dc1"');
  });

  it('names nested fields with the canonical spelling', () => {
    const job = base();
    (job.TaskGroups as Record<string, unknown>[])[0].count = '3';
    expect(rejection(job).message).toBe('Job.TaskGroups[0].Count: expected an integer, got string "3"');
    const job2 = base();
    ((job2.TaskGroups as Record<string, unknown>[])[0].Tasks as Record<string, unknown>[])[0].Resources = { MemoryMB: 'lots' };
    expect(rejection(job2).message).toBe('Job.TaskGroups[0].Tasks[0].Resources.MemoryMB: expected an integer, got string "lots"');
  });

  it('checks map values and durations', () => {
    expect(rejection({ ...base(), Meta: { a: 1 } }).message).toBe('Job.Meta["a"]: expected a string, got number 1');
    const job = base();
    ((job.TaskGroups as Record<string, unknown>[])[0].Tasks as Record<string, unknown>[])[0].KillTimeout = 'soon';
    expect(rejection(job).message).toMatch(/^Job\.TaskGroups\[0\]\.Tasks\[0\]\.KillTimeout: expected a duration/);
  });

  it('leaves free-form driver config alone', () => {
    const job = base();
    ((job.TaskGroups as Record<string, unknown>[])[0].Tasks as Record<string, unknown>[])[0].Config = { command: 'x', args: [1, { a: true }], port_map: [{ http: 80 }] };
    expect(() => validateJobInput(job)).not.toThrow();
  });
});
