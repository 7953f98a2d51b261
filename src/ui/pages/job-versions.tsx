/**
 * A job's versions tab: every version, newest first, and the diff between any two chosen (the server
 * diffs each version against the base one asks for with diff_version, so choosing is one query), and
 * reverting to an earlier version, which registers it again only if the job is still at the version
 * the page showed (EnforcePriorVersion).
 */
import { useState } from 'preact/hooks';
import { call } from '../api.js';
import { useLive } from '../live.js';
import { ago, fromNanos } from '../format.js';
import { Problem } from './problem.js';
import { DiffTree } from './job-diff.js';
import { ConfirmButton } from '../confirm.js';
import type { RegisterResponse, VersionsAnswer } from './job-types.js';
import { jobPath } from '../wire.js';


function VersionSelect(props: { label: string; testid: string; value: number; versions: number[]; onChange: (v: number) => void }) {
  return (
    <label>
      {props.label}{' '}
      <select data-testid={props.testid} value={String(props.value)} onChange={(e) => props.onChange(Number((e.target as HTMLSelectElement).value))}>
        {props.versions.map((v) => (
          <option key={v} value={String(v)}>
            version {v}
          </option>
        ))}
      </select>
    </label>
  );
}

export function JobVersions(props: { id: string; namespace: string; canSubmit: boolean }) {
  const { id, namespace } = props;
  // Unset: the newest against the one before it, as Nomad's UI opens the tab.
  const [chosen, setChosen] = useState<{ base?: number; shown?: number }>({});
  const [reverted, setReverted] = useState<string | undefined>();
  const answer = useLive<VersionsAnswer>(jobPath(id, '/versions'), { namespace, diffs: 'true', diff_version: chosen.base === undefined ? undefined : String(chosen.base) });
  if (answer.error) return <Problem error={answer.error} />;
  if (!answer.data) return <p class="muted">Loading…</p>;
  const versions = answer.data.Versions;
  const numbers = versions.map((v) => v.Version);
  const current = versions[0];
  const shown = chosen.shown !== undefined && numbers.includes(chosen.shown) ? chosen.shown : current.Version;
  const shownAt = numbers.indexOf(shown);
  const base = chosen.base ?? versions[shownAt + 1]?.Version;
  // Without a base, Diffs[i] is versions[i+1] -> versions[i]; with one, base -> versions[i].
  const diff = answer.data.Diffs?.[shownAt];

  const revert = async (version: number) => {
    const { data } = await call<RegisterResponse>(jobPath(id, '/revert'), {
      method: 'POST',
      query: { namespace },
      body: { JobID: id, JobVersion: version, EnforcePriorVersion: current.Version },
    });
    setReverted(`Reverted to version ${version}: evaluation ${data.EvalID.slice(0, 8)} created.`);
    setChosen({});
  };

  return (
    <div>
      {reverted && (
        <p class="notice" data-testid="reverted">
          {reverted}
        </p>
      )}
      <table class="list" data-testid="versions">
        <thead>
          <tr>
            <th>Version</th>
            <th>Tag</th>
            <th>Stable</th>
            <th>Submitted</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {versions.map((v) => (
            <tr key={v.Version} data-version={v.Version}>
              <td>{v.Version}</td>
              <td title={v.VersionTag?.Description}>{v.VersionTag?.Name ?? ''}</td>
              <td>{v.Stable ? 'yes' : 'no'}</td>
              <td title={fromNanos(v.SubmitTime)}>{ago(v.SubmitTime)}</td>
              <td>
                {props.canSubmit && v.Version !== current.Version && (
                  <ConfirmButton
                    label="Revert"
                    testid={`revert-${v.Version}`}
                    question={`Register version ${v.Version} again as the job's newest version?`}
                    confirmLabel={`Revert to version ${v.Version}`}
                    onConfirm={() => revert(v.Version)}
                  />
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2>Changes</h2>
      {versions.length < 2 ? (
        <p class="muted">This job has one version: nothing to compare.</p>
      ) : (
        <>
          <div class="toolbar">
            <VersionSelect label="From" testid="diff-base" value={base ?? shown} versions={numbers} onChange={(v) => setChosen({ ...chosen, base: v })} />
            <VersionSelect label="to" testid="diff-shown" value={shown} versions={numbers} onChange={(v) => setChosen({ ...chosen, shown: v })} />
          </div>
          {base === undefined ? <p class="muted">Version {shown} is the first: choose a version to compare it with.</p> : <DiffTree diff={diff} />}
        </>
      )}
    </div>
  );
}
