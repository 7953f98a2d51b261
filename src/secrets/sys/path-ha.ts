/**
 * The cluster as Vault reports high availability: sys/ha-status lists the servers (needs `read` on the
 * path), and sys/leader names the active one (no token needed, as in Vault). svc servers always run in
 * HA mode: one leader, the others standbys sharing its state.
 */
import { definePath } from '../framework/path.js';
import { haStatus, sysLeader } from '../../cluster/member-views.js';
import { listMembers } from '../../cluster/members.js';

export const haPaths = [
  definePath({
    pattern: 'ha-status',
    fields: {},
    synopsis: 'The servers of the cluster.',
    description:
      'Lists the servers of the cluster, the active node (the leader) first: host name, API and cluster ' +
      'address, version, and when each standby last reported in. Servers that stopped are not listed; ' +
      'one that failed is listed for a day.',
    operations: {
      read: {
        summary: 'List the servers of the cluster.',
        handler: async (req) => {
          const { services } = req;
          const { nodes } = haStatus(listMembers(services.store), services.leadership.leader());
          return { data: { nodes } };
        },
      },
    },
  }),
  definePath({
    pattern: 'leader',
    fields: {},
    unauthenticated: true,
    synopsis: 'The cluster leader.',
    description: 'Answers whether this server is the active node, and the address of the one that is. No token is needed.',
    operations: {
      read: {
        summary: 'Returns the leader.',
        handler: async (req) => ({ raw: sysLeader(req.services.leadership) }),
      },
    },
  }),
];
