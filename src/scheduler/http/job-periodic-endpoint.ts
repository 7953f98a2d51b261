/** Forcing a launch of a periodic job now (POST|PUT /v1/job/:job_id/periodic/force). */
import { launchPeriodic } from '../state/periodic.js';
import { defineRoute } from './route.js';

export const jobPeriodicRoutes = [
  defineRoute({
    methods: ['POST', 'PUT'],
    path: '/v1/job/*job_id/periodic/force',
    acl: { namespace: ['dispatch-job', 'submit-job'] },
    synopsis: "Launch an instance of a periodic job now, even while an earlier one runs under prohibit_overlap.",
    handler: async (req) => {
      const { result, index } = await launchPeriodic(req.services.store, req.namespace, req.params.job_id, new Date(), 'force');
      const evaluation = result.evaluation;
      return {
        index,
        // Nomad's PeriodicForceResponse carries WriteMeta: the index alone.
        body: { EvalID: evaluation?.ID ?? '', EvalCreateIndex: evaluation?.CreateIndex ?? 0, Index: index },
      };
    },
  }),
];
