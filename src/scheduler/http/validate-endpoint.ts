/** PUT /v1/validate/job: every validation error of a job at once, always 200 unless the body is malformed. */
import { UserError } from '../../shared/errors.js';
import { canonicalizeJob, formatValidationErrors, jobWarnings, validateJob, validateJobInput } from '../structs/index.js';
import { defineRoute } from './route.js';

export const validateRoutes = [
  defineRoute({
    methods: ['POST', 'PUT'],
    path: '/v1/validate/job',
    acl: { namespace: ['read-job', 'submit-job', 'parse-job'] },
    synopsis: 'Validate a job.',
    handler: async (req) => {
      const body = req.body() as Record<string, unknown> | undefined;
      if (!body || typeof body !== 'object' || Array.isArray(body) || body.Job === undefined) throw new UserError('Job must be specified');
      let errors: string[];
      let warnings: string[] = [];
      try {
        validateJobInput(body.Job);
        const job = canonicalizeJob(body.Job);
        errors = validateJob(job);
        warnings = jobWarnings(job);
      } catch (err) {
        if (!(err instanceof UserError)) throw err;
        errors = [err.message];
      }
      return {
        body: {
          DriverConfigValidated: false,
          ValidationErrors: errors.length > 0 ? errors : null,
          Error: errors.length > 0 ? formatValidationErrors(errors).trimEnd() : '',
          Warnings: warnings.join('\n'),
        },
      };
    },
  }),
];
