/** Tagging a job version and removing a tag (/v1/job/:job_id/versions/:tag_name/tag). */
import { UserError } from '../../shared/errors.js';
import { tagVersion, unsetTag } from '../state/job-version-tags.js';
import { bodyObject } from './alloc-endpoint.js';
import { defineRoute } from './route.js';
import { writeQueryMeta } from './write-meta.js';

/** Nomad's limit on a tag's description. */
export const TAG_DESCRIPTION_MAX = 1000;

const FIELDS = new Set(['Version', 'Description', 'Latest', 'Name', 'JobID', 'Region', 'Namespace', 'SecretID']);


export const jobVersionTagRoutes = [
  defineRoute({
    methods: ['POST', 'PUT'],
    path: '/v1/job/*job_id/versions/:tag_name/tag',
    // Nomad asks for submit-job, as for every other change to a job.
    acl: { namespace: ['submit-job'] },
    synopsis: 'Tag a job version (the latest unless Version is given) with a name unique within the job.',
    handler: async (req) => {
      const body = bodyObject(req, 'object with Version and Description', false);
      for (const key of Object.keys(body)) if (!FIELDS.has(key)) throw new UserError(`unknown field "${key}" in the tag request`);
      const version = body.Version ?? undefined;
      if (version !== undefined && (!Number.isSafeInteger(version) || (version as number) < 0)) throw new UserError('field "Version" must be a version number');
      const description = body.Description ?? '';
      if (typeof description !== 'string') throw new UserError('field "Description" must be a string');
      if (description.length > TAG_DESCRIPTION_MAX) throw new UserError(`tag description must be at most ${TAG_DESCRIPTION_MAX} characters`);
      const { tag, index } = await tagVersion(req.services.store, req.namespace, req.params.job_id, req.params.tag_name, {
        version: version as number | undefined,
        description,
      });
      return { index, body: { ...tag, ...writeQueryMeta(index) } };
    },
  }),
  defineRoute({
    methods: ['DELETE'],
    path: '/v1/job/*job_id/versions/:tag_name/tag',
    acl: { namespace: ['submit-job'] },
    synopsis: 'Remove a tag from the job version that holds it.',
    handler: async (req) => {
      const index = await unsetTag(req.services.store, req.namespace, req.params.job_id, req.params.tag_name);
      // Nomad answers the tag shape, emptied.
      return { index, body: { Name: '', Description: '', TaggedTime: 0, ...writeQueryMeta(index) } };
    },
  }),
];
