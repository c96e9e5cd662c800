import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  FieldErrors,
  Forbidden,
  LtiRosterLaunchParams,
  LtiRosterSummary,
  LtiRosterSync,
  LtiRosterSyncInput,
  LtiRosterSyncParams,
  LtiRosterSyncStarted,
} from '@portal/contract';
import { errorResponses } from '../../../../../lib/route-schemas';
import { currentUser } from '../../../../../plugins/app/auth';
import {
  rosterSummary,
  rosterSyncOf,
  startRosterSync,
} from '../../../../../services/lti/roster-sync';

const tags = ['lti'];

/** A refusal of the launch itself (not an instructor's: 403) names the field too. */
const responses = { ...errorResponses, 403: Type.Union([Forbidden, FieldErrors]) } as const;

/**
 * The roster sync (issue #22 point 4). Starting one and the launch page's summary need
 * `global.view_org_reports` (every educator and administrator, no learner), as deep linking does;
 * object scope: the caller's own launch of at most a day ago, with an instructor or administrator
 * role, whose course offers NRPS — anyone else's launch is 404. A sync is seen by whoever started
 * it or by an administrator of users (`global.update_user`) of the course's organisation (a
 * global administrator: any); anyone else gets 404.
 */
const ltiRosterSyncRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '',
    {
      config: { permissions: ['global.view_org_reports'] },
      schema: {
        tags,
        summary:
          "Sync the roster of the caller's recent launch's course (NRPS); runs in the background",
        body: LtiRosterSyncInput,
        response: { 202: LtiRosterSyncStarted, ...responses },
      },
    },
    async (request, reply) =>
      reply.code(202).send(await startRosterSync(app, currentUser(request), request.body.launchId)),
  );

  app.get(
    '/:id',
    {
      config: { permissions: ['global.view_org_reports', 'global.update_user'] },
      schema: {
        tags,
        summary: 'A roster sync: its status and what it changed',
        params: LtiRosterSyncParams,
        response: { 200: LtiRosterSync, ...errorResponses },
      },
    },
    async (request) => rosterSyncOf(app.db, currentUser(request), request.params.id),
  );

  app.get(
    '/launch/:launchId',
    {
      config: { permissions: ['global.view_org_reports'] },
      schema: {
        tags,
        summary: "The roster of the caller's recent launch's course: learners, last sync",
        params: LtiRosterLaunchParams,
        response: { 200: LtiRosterSummary, ...responses },
      },
    },
    async (request) => rosterSummary(app.db, currentUser(request), request.params.launchId),
  );
};

export default ltiRosterSyncRoutes;
