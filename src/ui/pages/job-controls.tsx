/**
 * What may be done to a job from its page, each shown only to a token that may do it: stop it (and
 * purge it), start a stopped job again, scale a task group, dispatch a parameterized job, launch a
 * periodic job now. The server's refusal is shown as it words it.
 */
import { useState } from 'preact/hooks';
import { call } from '../api.js';
import { useCan } from '../acl.js';
import { jobAddress, navigate } from '../router.js';
import { ConfirmButton, SubmitError, useSubmit } from '../confirm.js';
import type { DeregisterResponse, DispatchResponse, FullJob, RegisterResponse } from './job-types.js';
import { base64, jobPath } from '../wire.js';

/** What the token may do to jobs in the page's namespace. */
export interface JobCan {
  /** false until the token's rules are read: everything is held back till then */
  known: boolean;
  submit: boolean;
  scale: boolean;
  dispatch: boolean;
}


function StopControl(props: { job: FullJob }) {
  const { job } = props;
  const [purge, setPurge] = useState(false);
  return (
    <ConfirmButton
      label="Stop"
      testid="job-stop"
      danger
      question={`Stop every allocation of ${job.ID}?`}
      confirmLabel={purge ? 'Stop and purge' : 'Stop'}
      onConfirm={async () => {
        await call<DeregisterResponse>(jobPath(job.ID), { method: 'DELETE', query: { namespace: job.Namespace, purge: purge ? 'true' : undefined } });
        if (purge) navigate('/jobs');
      }}
    >
      <label class="inline">
        <input type="checkbox" data-testid="job-stop-purge" checked={purge} onChange={(e) => setPurge((e.target as HTMLInputElement).checked)} /> Purge the job too (its
        versions and history go at once)
      </label>
    </ConfirmButton>
  );
}

function StartControl(props: { job: FullJob }) {
  const submit = useSubmit();
  const { job } = props;
  // Registered again as it stands, only if nobody changed it since the page read it.
  const start = () =>
    submit.run(() =>
      call<RegisterResponse>(jobPath(job.ID), {
        method: 'POST',
        query: { namespace: job.Namespace },
        body: { Job: { ...job, Stop: false }, EnforceIndex: true, JobModifyIndex: job.JobModifyIndex },
      }),
    );
  return (
    <>
      <button type="button" class="active" data-testid="job-start" disabled={submit.busy} onClick={start}>
        Start
      </button>
      <SubmitError submit={submit} />
    </>
  );
}

function PeriodicForce(props: { job: FullJob }) {
  const submit = useSubmit();
  const [launched, setLaunched] = useState<string | undefined>();
  const force = () =>
    submit.run(async () => {
      const { data } = await call<{ EvalID: string }>(jobPath(props.job.ID, '/periodic/force'), { method: 'POST', query: { namespace: props.job.Namespace } });
      setLaunched(data.EvalID ? `Launched: evaluation ${data.EvalID.slice(0, 8)}` : 'Launched');
    });
  return (
    <>
      <button type="button" data-testid="job-periodic-force" disabled={submit.busy} onClick={force}>
        Launch now
      </button>
      {launched && (
        <span class="notice" data-testid="periodic-launched">
          {launched}
        </span>
      )}
      <SubmitError submit={submit} />
    </>
  );
}

function DispatchForm(props: { job: FullJob; onClose: () => void }) {
  const { job } = props;
  const spec = job.ParameterizedJob!;
  const required = spec.MetaRequired ?? [];
  const optional = spec.MetaOptional ?? [];
  const [meta, setMeta] = useState<Record<string, string>>({});
  const [payload, setPayload] = useState('');
  const submit = useSubmit();
  const missing = required.filter((k) => (meta[k] ?? '') === '');
  const payloadMissing = spec.Payload === 'required' && payload === '';
  const dispatch = (e: Event) => {
    e.preventDefault();
    void submit.run(async () => {
      const given = Object.fromEntries(Object.entries(meta).filter(([, v]) => v !== ''));
      const { data } = await call<DispatchResponse>(jobPath(job.ID, '/dispatch'), {
        method: 'POST',
        query: { namespace: job.Namespace },
        body: { JobID: job.ID, Meta: given, ...(payload !== '' ? { Payload: base64(payload) } : {}) },
      });
      navigate(jobAddress(data.DispatchedJobID, job.Namespace));
    });
  };
  const metaInput = (key: string, isRequired: boolean) => (
    <label key={key} class="field">
      <span>
        {key}
        {isRequired ? ' (required)' : ''}
      </span>
      <input data-testid={`dispatch-meta-${key}`} required={isRequired} value={meta[key] ?? ''} onInput={(e) => setMeta({ ...meta, [key]: (e.target as HTMLInputElement).value })} />
    </label>
  );
  return (
    <form class="panel stacked" data-testid="dispatch-form" onSubmit={dispatch}>
      <h2>Dispatch {job.ID}</h2>
      {required.length + optional.length === 0 && <p class="muted">This job takes no metadata.</p>}
      {required.map((k) => metaInput(k, true))}
      {optional.map((k) => metaInput(k, false))}
      {spec.Payload !== 'forbidden' && (
        <label class="field">
          <span>Payload{spec.Payload === 'required' ? ' (required)' : ' (optional)'}</span>
          <textarea data-testid="dispatch-payload" rows={6} value={payload} onInput={(e) => setPayload((e.target as HTMLTextAreaElement).value)} />
        </label>
      )}
      <div class="toolbar">
        <button type="submit" class="active" data-testid="dispatch-submit" disabled={submit.busy || missing.length > 0 || payloadMissing}>
          Dispatch
        </button>
        <button type="button" onClick={props.onClose}>
          Cancel
        </button>
        {missing.length > 0 && <span class="muted">Required: {missing.join(', ')}</span>}
      </div>
      <SubmitError submit={submit} />
    </form>
  );
}

export function JobControls(props: { job: FullJob; can: JobCan }) {
  const { job, can } = props;
  const [dispatching, setDispatching] = useState(false);
  const parameterized = !!job.ParameterizedJob && !job.Dispatched;
  const periodic = !!job.Periodic?.Enabled && !job.ParentID;
  const offered = can.submit || (can.dispatch && (parameterized || periodic));
  return (
    <>
      <div class="toolbar" data-testid="job-controls">
        {can.known && !offered && (
          <span class="muted" data-testid="job-read-only">
            This token may read this job but not change it.
          </span>
        )}
        {can.submit && !job.Stop && <StopControl job={job} />}
        {can.submit && job.Stop && <StartControl job={job} />}
        {can.dispatch && parameterized && !job.Stop && (
          <button type="button" data-testid="job-dispatch" onClick={() => setDispatching(true)} disabled={dispatching}>
            Dispatch
          </button>
        )}
        {(can.dispatch || can.submit) && periodic && !job.Stop && <PeriodicForce job={job} />}
      </div>
      {dispatching && <DispatchForm job={job} onClose={() => setDispatching(false)} />}
    </>
  );
}

/** A task group's count, and with scale-job a field to change it (POST /v1/job/:id/scale). */
export function ScaleControl(props: { job: FullJob; group: string; count: number }) {
  const [count, setCount] = useState(String(props.count));
  const [editing, setEditing] = useState(false);
  const submit = useSubmit();
  const { job, group } = props;
  const wanted = Number(count);
  const valid = /^\d+$/.test(count) && wanted !== props.count;
  const scale = (e: Event) => {
    e.preventDefault();
    void submit
      .run(() =>
        call<RegisterResponse>(jobPath(job.ID, '/scale'), {
          method: 'POST',
          query: { namespace: job.Namespace },
          body: { Count: wanted, Target: { Group: group }, Message: 'scaled from the web UI' },
        }),
      )
      .then((ok) => ok && setEditing(false));
  };
  if (!editing) {
    return (
      <button type="button" class="link" data-testid={`scale-${group}`} onClick={() => (setCount(String(props.count)), setEditing(true))}>
        Scale
      </button>
    );
  }
  return (
    <form class="inline" data-testid={`scale-form-${group}`} onSubmit={scale}>
      <input type="number" min="0" step="1" class="count" data-testid={`scale-count-${group}`} value={count} onInput={(e) => setCount((e.target as HTMLInputElement).value)} />
      <button type="submit" class="active" data-testid={`scale-submit-${group}`} disabled={!valid || submit.busy}>
        Set count
      </button>
      <button type="button" onClick={() => setEditing(false)}>
        Cancel
      </button>
      <SubmitError submit={submit} />
    </form>
  );
}

/** The job capabilities of the token in a namespace; nothing until the token's rules are known. */
export function useJobCan(namespace: string): JobCan {
  const can = useCan();
  const has = (capability: string) => can?.job(capability, namespace) ?? false;
  return { known: can !== undefined, submit: has('submit-job'), scale: has('scale-job') || has('submit-job'), dispatch: has('dispatch-job') };
}
