import { describe, expect, it } from 'vitest';
import { canonicalizeJob, copyJob, jobSpecChanged, type Job } from '../../../src/scheduler/structs/index.js';

function sample(): Job {
  return canonicalizeJob({
    ID: 'web',
    Meta: { a: '1', b: '2' },
    TaskGroups: [
      {
        Name: 'g',
        Count: 2,
        Scaling: { Min: 1, Max: 5 },
        Tasks: [{ Name: 't', Driver: 'raw_exec', Config: { command: '/bin/sleep', args: ['60'] }, Env: { X: '1' } }],
      },
    ],
  });
}

describe('copyJob', () => {
  it('copies deeply: changing the copy at any depth leaves the original alone', () => {
    const job = sample();
    const copy = copyJob(job);
    expect(copy).toEqual(job);
    copy.TaskGroups[0].Tasks[0].Config!.args = ['1'];
    (copy.TaskGroups[0].Tasks[0].Config!.args as string[]).push('2');
    copy.TaskGroups[0].Tasks[0].Env!.X = '2';
    copy.TaskGroups[0].RestartPolicy.Attempts = 99;
    copy.Meta!.a = 'changed';
    copy.Datacenters.push('dc9');
    expect(job.TaskGroups[0].Tasks[0].Config!.args).toEqual(['60']);
    expect(job.TaskGroups[0].Tasks[0].Env!.X).toBe('1');
    expect(job.TaskGroups[0].RestartPolicy.Attempts).toBe(2);
    expect(job.Meta!.a).toBe('1');
    expect(job.Datacenters).toEqual(['*']);
    expect(copy.TaskGroups).not.toBe(job.TaskGroups);
    expect(copy.TaskGroups[0].Tasks[0].Resources).not.toBe(job.TaskGroups[0].Tasks[0].Resources);
  });
});

describe('jobSpecChanged', () => {
  it('ignores status, version, indexes, submit time, token and tag', () => {
    const a = sample();
    const b = copyJob(a);
    b.Status = 'running';
    b.StatusDescription = 'x';
    b.Stable = true;
    b.Version = 4;
    b.SubmitTime = 1_700_000_000_000_000_000;
    b.CreateIndex = 5;
    b.ModifyIndex = 9;
    b.JobModifyIndex = 8;
    b.NomadTokenID = 'abc';
    b.VersionTag = { Name: 'v1', Description: '', TaggedTime: 1 };
    b.TaskGroups[0].Scaling!.ID = 'policy-id';
    b.TaskGroups[0].Scaling!.CreateIndex = 5;
    expect(jobSpecChanged(a, b)).toBe(false);
  });

  it('does not see a change when the same file is canonicalized again', () => {
    expect(jobSpecChanged(sample(), sample())).toBe(false);
  });

  it('ignores the order of map keys', () => {
    const a = sample();
    const b = copyJob(a);
    b.Meta = { b: '2', a: '1' };
    expect(jobSpecChanged(a, b)).toBe(false);
  });

  it('sees a count change', () => {
    const a = sample();
    const b = copyJob(a);
    b.TaskGroups[0].Count = 3;
    expect(jobSpecChanged(a, b)).toBe(true);
  });

  it('sees changes deep in a task, in meta, and to Stop', () => {
    const a = sample();
    const deep = copyJob(a);
    (deep.TaskGroups[0].Tasks[0].Config!.args as string[])[0] = '61';
    expect(jobSpecChanged(a, deep)).toBe(true);
    const meta = copyJob(a);
    meta.Meta = { a: '1' };
    expect(jobSpecChanged(a, meta)).toBe(true);
    const stopped = copyJob(a);
    stopped.Stop = true;
    expect(jobSpecChanged(a, stopped)).toBe(true);
    const nulls = copyJob(a);
    nulls.TaskGroups[0].Tasks[0].Env = null;
    expect(jobSpecChanged(a, nulls)).toBe(true);
  });
});
