/**
 * What the scheduler commands (job, alloc, eval, deployment, node) do, loaded on first use: the
 * declarations in src/cli/commands/<group>/<verb>.ts stay in the CLI bundle, for help, man pages and
 * completions, and each one's `run` calls its implementation here, `src/cli/scheduler/<group>-<verb>.ts`.
 * scripts/build.mjs builds this module as dist/cli-scheduler.cjs, so `svc version` does not compile the
 * screens, the evaluation and deployment monitors, the ID prefix lookups or the API wrappers they use.
 *
 * Nothing outside this directory may import from it except through `await import()`.
 */
export { agentInfo } from './agent-info.js';
export { serverMembers } from './server-members.js';
export { statusByPrefix } from './status-prefix.js';
export { monitor } from './agent-monitor.js';
export { allocRestart } from './alloc-restart.js';
export { allocPause } from './alloc-pause.js';
export { allocSignal } from './alloc-signal.js';
export { allocStatus } from './alloc-status.js';
export { allocChecks } from './alloc-checks.js';
export { allocStop } from './alloc-stop.js';
export { allocLogs } from './alloc-logs.js';
export { allocFs } from './alloc-fs.js';
export { allocExec } from './alloc-exec.js';
export { evalList } from './eval-list.js';
export { evalStatus } from './eval-status.js';
export { nodeStatus } from './node-status.js';
export { nodeEligibility } from './node-eligibility.js';
export { nodeDrain } from './node-drain.js';
export { deploymentList } from './deployment-list.js';
export { deploymentStatus } from './deployment-status.js';
export { deploymentFail } from './deployment-fail.js';
export { deploymentPause } from './deployment-pause.js';
export { deploymentResume } from './deployment-resume.js';
export { deploymentPromote } from './deployment-promote.js';
export { serviceList } from './service-list.js';
export { serviceInfo } from './service-info.js';
export { namespaceList } from './namespace-list.js';
export { namespaceStatus } from './namespace-status.js';
