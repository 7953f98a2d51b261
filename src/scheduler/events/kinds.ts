/**
 * What a write is, as the scheduler's writes describe themselves to the store (WriteTx.describe): Nomad's
 * raft message types, named without their RequestType suffix. The event stream names each write's events
 * by its kind, as Nomad's MsgTypeEvents does; a write of no kind gets the type Nomad gives the usual
 * write to the table it changed (DEFAULT_TYPES in events.ts).
 */
export const WriteKind = {
  NodeRegister: 'NodeRegister',
  NodeDeregister: 'NodeDeregister',
  NodeUpdateStatus: 'NodeUpdateStatus',
  NodeUpdateDrain: 'NodeUpdateDrain',
  NodeUpdateEligibility: 'NodeUpdateEligibility',
  UpsertNodeEvents: 'UpsertNodeEvents',
  JobRegister: 'JobRegister',
  JobDeregister: 'JobDeregister',
  JobBatchDeregister: 'JobBatchDeregister',
  EvalUpdate: 'EvalUpdate',
  AllocClientUpdate: 'AllocClientUpdate',
  AllocUpdateDesiredTransition: 'AllocUpdateDesiredTransition',
  ApplyPlanResults: 'ApplyPlanResults',
  DeploymentStatusUpdate: 'DeploymentStatusUpdate',
  DeploymentPromote: 'DeploymentPromote',
  DeploymentAllocHealth: 'DeploymentAllocHealth',
} as const;

export type WriteKind = (typeof WriteKind)[keyof typeof WriteKind];

/** Nomad's event Type for each kind (nomad/state/events.go). */
export const EVENT_TYPES: Readonly<Record<string, string>> = {
  NodeRegister: 'NodeRegistration',
  NodeDeregister: 'NodeDeregistration',
  NodeUpdateStatus: 'NodeStreamEvent',
  NodeUpdateDrain: 'NodeDrain',
  NodeUpdateEligibility: 'NodeEligibility',
  UpsertNodeEvents: 'NodeStreamEvent',
  JobRegister: 'JobRegistered',
  JobDeregister: 'JobDeregistered',
  JobBatchDeregister: 'JobBatchDeregistered',
  EvalUpdate: 'EvaluationUpdated',
  AllocClientUpdate: 'AllocationUpdated',
  AllocUpdateDesiredTransition: 'AllocationUpdateDesiredStatus',
  ApplyPlanResults: 'PlanResult',
  DeploymentStatusUpdate: 'DeploymentStatusUpdate',
  DeploymentPromote: 'DeploymentPromotion',
  DeploymentAllocHealth: 'DeploymentAllocHealth',
};
