/**
 * A job's deployments tab: the newest deployment's progress per task group (desired, canaries, placed,
 * healthy, unhealthy, the progress deadline) with what may be done to it while it is active (promote
 * its canaries, pause or resume it, mark it failed), and the earlier deployments below.
 */
import { call } from '../api.js';
import { useLive } from '../live.js';
import { ago, fromNanos, shortId } from '../format.js';
import { Problem } from './problem.js';
import { ConfirmButton, SubmitError, useSubmit } from '../confirm.js';
import type { Deployment, DeploymentUpdateResponse } from './job-types.js';
import { jobPath } from '../wire.js';

const active = (d: Deployment) => d.Status === 'running' || d.Status === 'paused' || d.Status === 'pending' || d.Status === 'initializing';

const deploymentPath = (verb: string, id: string) => `/v1/deployment/${verb}/${encodeURIComponent(id)}`;

function Controls(props: { deployment: Deployment }) {
  const d = props.deployment;
  const submit = useSubmit();
  const post = (verb: string, body: Record<string, unknown>) => () =>
    submit.run(() => call<DeploymentUpdateResponse>(deploymentPath(verb, d.ID), { method: 'POST', query: { namespace: d.Namespace }, body: { DeploymentID: d.ID, ...body } }));
  const groups = Object.values(d.TaskGroups ?? {});
  const awaitsPromotion = groups.some((g) => g.DesiredCanaries > 0 && !g.Promoted);
  return (
    <div class="toolbar" data-testid="deployment-controls">
      {awaitsPromotion && (
        <button type="button" class="active" data-testid="deployment-promote" disabled={submit.busy} onClick={post('promote', { All: true })}>
          Promote canaries
        </button>
      )}
      {d.Status === 'paused' ? (
        <button type="button" data-testid="deployment-resume" disabled={submit.busy} onClick={post('pause', { Pause: false })}>
          Resume
        </button>
      ) : (
        <button type="button" data-testid="deployment-pause" disabled={submit.busy} onClick={post('pause', { Pause: true })}>
          Pause
        </button>
      )}
      <ConfirmButton
        label="Fail deployment"
        testid="deployment-fail"
        danger
        question="Mark this deployment failed? With auto_revert the last stable version is registered again."
        confirmLabel="Fail it"
        onConfirm={() => call<DeploymentUpdateResponse>(deploymentPath('fail', d.ID), { method: 'POST', query: { namespace: d.Namespace }, body: { DeploymentID: d.ID } })}
      />
      <SubmitError submit={submit} />
    </div>
  );
}

function Groups(props: { deployment: Deployment }) {
  const entries = Object.entries(props.deployment.TaskGroups ?? {}).sort(([a], [b]) => (a < b ? -1 : 1));
  return (
    <table class="list" data-testid="deployment-groups">
      <thead>
        <tr>
          <th>Task group</th>
          <th>Desired</th>
          <th>Canaries</th>
          <th>Placed</th>
          <th>Healthy</th>
          <th>Unhealthy</th>
          <th>Progress deadline</th>
        </tr>
      </thead>
      <tbody>
        {entries.map(([name, g]) => (
          <tr key={name}>
            <td>{name}</td>
            <td>{g.DesiredTotal}</td>
            <td>{g.DesiredCanaries > 0 ? `${(g.PlacedCanaries ?? []).length}/${g.DesiredCanaries}${g.Promoted ? ' (promoted)' : ''}` : '–'}</td>
            <td>{g.PlacedAllocs}</td>
            <td>{g.HealthyAllocs}</td>
            <td>{g.UnhealthyAllocs}</td>
            <td>{g.RequireProgressBy && !g.RequireProgressBy.startsWith('0001-') ? new Date(g.RequireProgressBy).toLocaleString() : ''}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function JobDeployments(props: { id: string; namespace: string; canSubmit: boolean }) {
  const list = useLive<Deployment[]>(jobPath(props.id, '/deployments'), { namespace: props.namespace });
  if (list.error) return <Problem error={list.error} />;
  if (!list.data) return <p class="muted">Loading…</p>;
  const deployments = [...list.data].sort((a, b) => b.CreateIndex - a.CreateIndex);
  if (deployments.length === 0) return <p class="muted">No deployments: the job has no group with an update block, or it is not a service job.</p>;
  const [latest, ...earlier] = deployments;
  return (
    <div>
      <h2>
        Deployment <span title={latest.ID}>{shortId(latest.ID)}</span> of version {latest.JobVersion}{' '}
        <span class={`status status-${latest.Status}`} data-testid="deployment-status">
          {latest.Status}
        </span>
      </h2>
      <p class="muted" data-testid="deployment-description">
        {latest.StatusDescription}
      </p>
      {props.canSubmit && active(latest) && <Controls deployment={latest} />}
      <Groups deployment={latest} />
      {earlier.length > 0 && (
        <>
          <h2>Earlier deployments</h2>
          <table class="list" data-testid="earlier-deployments">
            <thead>
              <tr>
                <th>ID</th>
                <th>Version</th>
                <th>Status</th>
                <th>Description</th>
                <th>Created</th>
              </tr>
            </thead>
            <tbody>
              {earlier.map((d) => (
                <tr key={d.ID}>
                  <td title={d.ID}>{shortId(d.ID)}</td>
                  <td>{d.JobVersion}</td>
                  <td>
                    <span class={`status status-${d.Status}`}>{d.Status}</span>
                  </td>
                  <td>{d.StatusDescription}</td>
                  <td title={fromNanos(d.CreateTime)}>{ago(d.CreateTime)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </div>
  );
}
