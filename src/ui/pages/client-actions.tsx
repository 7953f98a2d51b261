/**
 * What a token with node write may do to a node from its page, as Nomad's UI offers it: mark it
 * eligible or ineligible for new placements, and start a drain (with a deadline, forced, or leaving the
 * system jobs in place), force a running drain or stop it. A token without node write sees none of it.
 * The page's own live view of the node shows each change once the server has made it.
 */
import { useState } from 'preact/hooks';
import { call } from '../api.js';
import { useCan } from '../acl.js';
import type { Node } from '../types.js';
import { SubmitError, useSubmit } from '../confirm.js';

const UNITS: Record<string, number> = { ns: 1, us: 1e3, µs: 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9, d: 86400e9 };

/** A Go-style duration ("90s", "1h30m", plus "d" for days) in nanoseconds; undefined when it is not one. */
function parseDuration(text: string): number | undefined {
  const s = text.trim();
  if (!/^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h|d))+$/.test(s)) return undefined;
  let total = 0;
  for (const [, n, , unit] of s.matchAll(/(\d+(\.\d+)?)(ns|us|µs|ms|s|m|h|d)/g)) total += Number(n) * UNITS[unit];
  return Math.round(total);
}

function Eligibility(props: { node: Node }) {
  const { node } = props;
  const action = useSubmit();
  const eligible = node.SchedulingEligibility === 'eligible';
  const toggle = () => action.run(() => call(`/v1/node/${encodeURIComponent(node.ID)}/eligibility`, { method: 'POST', body: { NodeID: node.ID, Eligibility: eligible ? 'ineligible' : 'eligible' } }));
  return (
    <div class="node-action">
      <label>
        <input type="checkbox" data-testid="eligibility-toggle" checked={eligible} disabled={action.busy || !!node.DrainStrategy} onChange={toggle} /> Eligible for new allocations
      </label>
      {node.DrainStrategy && <span class="hint">A draining node stays ineligible until its drain ends.</span>}
      <SubmitError submit={action} />
    </div>
  );
}

function Drain(props: { node: Node }) {
  const { node } = props;
  const action = useSubmit();
  const [deadline, setDeadline] = useState('1h');
  const [force, setForce] = useState(false);
  const [ignoreSystem, setIgnoreSystem] = useState(false);
  const [invalid, setInvalid] = useState<string>();
  const path = `/v1/node/${encodeURIComponent(node.ID)}/drain`;
  const drain = (spec: { Deadline: number; IgnoreSystemJobs: boolean } | null) => action.run(() => call(path, { method: 'POST', body: { NodeID: node.ID, DrainSpec: spec, MarkEligible: false } }));

  if (node.DrainStrategy) {
    const { IgnoreSystemJobs } = node.DrainStrategy;
    return (
      <div class="node-action" data-testid="drain-controls">
        <button type="button" data-testid="drain-stop" disabled={action.busy} onClick={() => drain(null)}>
          Stop drain
        </button>
        {node.DrainStrategy.Deadline >= 0 && (
          <button type="button" data-testid="drain-force" disabled={action.busy} onClick={() => drain({ Deadline: -1, IgnoreSystemJobs })}>
            Force drain now
          </button>
        )}
        <SubmitError submit={action} />
      </div>
    );
  }

  const submit = (e: Event) => {
    e.preventDefault();
    let ns = -1;
    if (!force) {
      const parsed = deadline.trim() === '' ? 0 : parseDuration(deadline);
      if (parsed === undefined) {
        setInvalid('Deadline must be a duration such as 30m, 2h or 1d, or empty for none.');
        return;
      }
      ns = parsed;
    }
    setInvalid(undefined);
    void drain({ Deadline: ns, IgnoreSystemJobs: ignoreSystem });
  };
  return (
    <form class="node-action" data-testid="drain-controls" onSubmit={submit}>
      <label>
        Deadline <input class="short" data-testid="drain-deadline" value={deadline} disabled={force} onInput={(e) => setDeadline((e.target as HTMLInputElement).value)} />
      </label>
      <label>
        <input type="checkbox" data-testid="drain-force-now" checked={force} onChange={(e) => setForce((e.target as HTMLInputElement).checked)} /> Force (migrate everything now)
      </label>
      <label>
        <input type="checkbox" data-testid="drain-ignore-system" checked={ignoreSystem} onChange={(e) => setIgnoreSystem((e.target as HTMLInputElement).checked)} /> Ignore system jobs (they keep running)
      </label>
      <button type="submit" data-testid="drain-start" disabled={action.busy}>
        Drain
      </button>
      <span class="hint">Allocations move off the node; what is left at the deadline is stopped. An empty deadline waits for them however long it takes.</span>
      {invalid && (
        <p class="error" role="alert">
          {invalid}
        </p>
      )}
      <SubmitError submit={action} />
    </form>
  );
}

export function NodeActions(props: { node: Node }) {
  const can = useCan();
  if (!can) return null;
  if (!can.node('write'))
    return (
      <p class="muted" data-testid="node-actions-denied">
        Draining this node or changing its eligibility needs a token with node write.
      </p>
    );
  return (
    <div class="node-actions" data-testid="node-actions">
      <Eligibility node={props.node} />
      <Drain node={props.node} />
    </div>
  );
}
