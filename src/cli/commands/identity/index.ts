/** The identity commands: entities, entity aliases and lookups, over the identity/ endpoints. */
import { defineGroup, type CommandSpec, type GroupSpec } from '../../define.js';
import entityCreate from './entity/create.js';
import entityRead from './entity/read.js';
import entityUpdate from './entity/update.js';
import entityDelete from './entity/delete.js';
import entityList from './entity/list.js';
import aliasCreate from './entity-alias/create.js';
import aliasRead from './entity-alias/read.js';
import aliasUpdate from './entity-alias/update.js';
import aliasDelete from './entity-alias/delete.js';
import aliasList from './entity-alias/list.js';
import lookupEntity from './lookup/entity.js';

/** The groups below `identity` (the root is in group.ts, listed on every start). */
export const groups: GroupSpec[] = [
  defineGroup({
    path: ['identity', 'entity'],
    synopsis: 'Manage entities',
    description:
      'Create, read, update, delete and list entities. An entity carries policies and metadata that apply ' +
      'to every token issued to any of its aliases; a disabled entity\'s tokens are refused.',
  }),
  defineGroup({
    path: ['identity', 'entity-alias'],
    synopsis: 'Manage entity aliases',
    description:
      'Create, read, update, delete and list entity aliases. An alias is a name in one auth mount (given ' +
      'by its accessor, see `svc auth list`) owned by one entity. A mount accessor and name pair has at ' +
      'most one alias, and an entity at most one alias per mount.',
  }),
  defineGroup({
    path: ['identity', 'lookup'],
    synopsis: 'Look up identities',
    description: 'Finds an entity by its ID or name, or by the ID or the name and mount of one of its aliases.',
  }),
];

export const commands: CommandSpec[] = [
  entityCreate,
  entityRead,
  entityUpdate,
  entityDelete,
  entityList,
  aliasCreate,
  aliasRead,
  aliasUpdate,
  aliasDelete,
  aliasList,
  lookupEntity,
];
