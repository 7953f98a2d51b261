/**
 * sys/health, as Vault's: GET answers the health body, HEAD only its status, with no token. The status
 * says what the server is: active 200, standby (a server that does not lead) 429 unless `standbyok`,
 * sealed 503, not initialised 501; each can be changed with its `*code` parameter, for load balancers
 * that route on the status alone.
 */
import { UserError } from '../../shared/errors.js';
import type { FieldData } from '../../framework/schema/field-data.js';
import type { Fields } from '../../framework/schema/field-schema.js';
import { definePath } from '../framework/path.js';
import type { SecretsContext } from '../context.js';
import { CLUSTER_NAME, clusterId, initialized } from './cluster-identity.js';

const statusField = (what: string, code: number) => ({ type: 'int' as const, description: `The status code answered ${what} (default ${code}).` });

const HEALTH_FIELDS: Fields = {
  standbyok: { type: 'bool', description: 'Answer a standby with the active code instead of the standby code.' },
  perfstandbyok: { type: 'bool', description: 'Answer a performance standby with the active code (svc has none; accepted as Vault does).' },
  activecode: statusField('by the active server', 200),
  standbycode: statusField('by a standby', 429),
  sealedcode: statusField('by a sealed server', 503),
  uninitcode: statusField('by a server that is not initialised', 501),
  drsecondarycode: statusField('by a DR secondary (svc has none)', 472),
  performancestandbycode: statusField('by a performance standby (svc has none)', 473),
};

/** A status code from the query, or the default; Go's net/http writes only codes of three digits. */
function code(data: FieldData, name: string, fallback: number): number {
  const given = data.getOk<number>(name);
  if (given === undefined) return fallback;
  if (given < 200 || given > 999) throw new UserError(`invalid value ${given} for field "${name}": give an HTTP status code from 200 to 999`);
  return given;
}

interface HealthBody {
  /** server_time_utc, whole seconds */
  second: number;
  standby: boolean;
  initialized: boolean;
  /** the JSON answered */
  text: string;
}

/**
 * The last body each server answered. Only the clock (to the second) and the leadership change it while
 * the server runs: the state is initialised once and for all before it serves, and its cluster ID and the
 * server's version never change. Load balancers poll this path, so the body is made once a second at most.
 */
const lastBody = new WeakMap<SecretsContext, HealthBody>();

function healthBody(services: SecretsContext): HealthBody {
  const second = Math.floor(Date.now() / 1000);
  const standby = !services.leadership.isLeader();
  const last = lastBody.get(services);
  if (last && last.second === second && last.standby === standby) return last;
  const init = initialized(services.store);
  const text = JSON.stringify({
    initialized: init,
    sealed: false,
    standby,
    performance_standby: false,
    replication_performance_mode: 'disabled',
    replication_dr_mode: 'disabled',
    server_time_utc: second,
    version: services.version,
    cluster_name: CLUSTER_NAME,
    cluster_id: clusterId(services.store),
  });
  const body = { second, standby, initialized: init, text };
  lastBody.set(services, body);
  return body;
}

export const healthPaths = [
  definePath({
    pattern: 'health',
    fields: HEALTH_FIELDS,
    unauthenticated: true,
    tokenIgnored: true,
    head: true,
    synopsis: 'Health of the server.',
    description:
      'Answers 200 from the active server (the cluster leader) once it is ready to serve requests, 429 from a ' +
      'standby (or 200 with standbyok=true); activecode, standbycode, sealedcode and uninitcode change those ' +
      'codes. HEAD answers the status alone. No token is needed. A running server is never sealed: it refuses ' +
      'to start without its seal key instead.',
    operations: {
      read: {
        summary: 'Returns the health status.',
        handler: async (req, data) => {
          const { services } = req;
          // Every code is checked, used or not: a bad one is a 400 whichever state the server is in.
          const codes = {
            active: code(data, 'activecode', 200),
            standby: code(data, 'standbycode', 429),
            uninit: code(data, 'uninitcode', 501),
          };
          code(data, 'sealedcode', 503);
          code(data, 'drsecondarycode', 472);
          code(data, 'performancestandbycode', 473);
          const body = healthBody(services);
          let status = codes.active;
          if (!body.initialized) status = codes.uninit;
          else if (body.standby && !data.get<boolean>('standbyok')) status = codes.standby;
          return { status, text: { contentType: 'application/json', body: body.text } };
        },
      },
    },
  }),
];
