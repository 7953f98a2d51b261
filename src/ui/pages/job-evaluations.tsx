/**
 * A job's evaluations tab, newest first; an evaluation that could not place every allocation says why
 * below its row, as `nomad eval status` does.
 */
import { Fragment } from 'preact';
import { useLive } from '../live.js';
import { ago, fromNanos, shortId } from '../format.js';
import type { Evaluation } from '../types.js';
import { Problem } from './problem.js';
import { PlacementFailures } from './job-placement.js';
import { jobPath } from '../wire.js';

export function JobEvaluations(props: { id: string; namespace: string }) {
  const evals = useLive<Evaluation[]>(jobPath(props.id, '/evaluations'), { namespace: props.namespace });
  if (evals.error) return <Problem error={evals.error} />;
  if (!evals.data) return <p class="muted">Loading…</p>;
  const sorted = [...evals.data].sort((a, b) => b.CreateIndex - a.CreateIndex);
  return (
    <table class="list" data-testid="evaluations">
      <thead>
        <tr>
          <th>ID</th>
          <th>Triggered by</th>
          <th>Status</th>
          <th>Placement failures</th>
          <th>Created</th>
        </tr>
      </thead>
      <tbody>
        {sorted.map((e) => {
          const failed = Object.keys(e.FailedTGAllocs ?? {});
          return (
            <Fragment key={e.ID}>
              <tr data-eval={e.ID}>
                <td title={e.ID}>{shortId(e.ID)}</td>
                <td>{e.TriggeredBy}</td>
                <td>
                  <span class={`status status-${e.Status}`}>{e.Status}</span>
                  {e.StatusDescription ? ` (${e.StatusDescription})` : ''}
                </td>
                <td>{failed.length > 0 ? failed.sort().join(', ') : 'none'}</td>
                <td title={fromNanos(e.CreateTime)}>{ago(e.CreateTime)}</td>
              </tr>
              {failed.length > 0 && (
                <tr class="detail">
                  <td colSpan={5}>
                    <PlacementFailures failed={e.FailedTGAllocs} />
                  </td>
                </tr>
              )}
            </Fragment>
          );
        })}
      </tbody>
    </table>
  );
}
