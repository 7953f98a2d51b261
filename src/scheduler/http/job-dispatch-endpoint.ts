/** Dispatching a parameterized job (POST|PUT /v1/job/:job_id/dispatch). */
import { UserError } from '../../shared/errors.js';
import { dispatchJob } from '../state/dispatch.js';
import { bodyObject } from './alloc-endpoint.js';
import { defineRoute } from './route.js';

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function stringField(body: Record<string, unknown>, name: string): string {
  const v = body[name] ?? '';
  if (typeof v !== 'string') throw new UserError(`field "${name}" must be a string`);
  return v;
}

/** `Payload` as Go decodes a []byte: standard, padded base64. */
function payloadOf(body: Record<string, unknown>): Buffer {
  const text = stringField(body, 'Payload');
  if (!BASE64.test(text)) throw new UserError('field "Payload" must be standard base64 (with padding)');
  return Buffer.from(text, 'base64');
}

function metaOf(body: Record<string, unknown>): Record<string, string> {
  const meta = body.Meta ?? {};
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta) || Object.values(meta).some((v) => typeof v !== 'string')) {
    throw new UserError('field "Meta" must be a map of string to string');
  }
  return meta as Record<string, string>;
}

// The request's fields, and the write-request fields Nomad's clients may send along.
const KNOWN = new Set(['JobID', 'Payload', 'Meta', 'IdPrefixTemplate', 'Priority', 'IdempotencyToken', 'Region', 'Namespace', 'SecretID', 'AuthToken']);

export const jobDispatchRoutes = [
  defineRoute({
    methods: ['POST', 'PUT'],
    path: '/v1/job/*job_id/dispatch',
    acl: { namespace: ['dispatch-job'] },
    synopsis: 'Dispatch an instance of a parameterized job, with a payload and metadata.',
    query: {
      idempotency_token: { type: 'string', description: 'Dispatch at most one instance per token while that instance is not dead.' },
      IdempotencyToken: { type: 'string', description: 'The same as idempotency_token (the field name Nomad documents).' },
    },
    handler: async (req) => {
      const body = bodyObject(req, 'object with Payload, Meta, IdPrefixTemplate and Priority', false);
      const unknown = Object.keys(body).find((k) => !KNOWN.has(k));
      if (unknown !== undefined) throw new UserError(`unknown field "${unknown}" in the dispatch request`);
      const jobId = stringField(body, 'JobID');
      if (jobId !== '' && jobId !== req.params.job_id) throw new UserError('Job ID does not match');
      const priority = body.Priority ?? 0;
      if (!Number.isSafeInteger(priority)) throw new UserError('field "Priority" must be an integer');
      const template = stringField(body, 'IdPrefixTemplate');
      const token = req.raw.query.get('idempotency_token') ?? req.raw.query.get('IdempotencyToken') ?? stringField(body, 'IdempotencyToken');
      const { result, index } = await dispatchJob(req.services.store, req.namespace, req.params.job_id, {
        payload: payloadOf(body),
        meta: metaOf(body),
        idPrefixTemplate: template,
        priority: priority as number,
        idempotencyToken: token,
      });
      const { child } = result;
      const answerIndex = result.created ? index : child.ModifyIndex;
      return {
        index: answerIndex,
        body: {
          DispatchedJobID: child.ID,
          EvalID: result.evalId,
          EvalCreateIndex: result.evalCreateIndex,
          JobCreateIndex: child.CreateIndex,
          // Nomad's JobDispatchResponse carries WriteMeta: the index alone.
          Index: answerIndex,
        },
      };
    },
  }),
];
