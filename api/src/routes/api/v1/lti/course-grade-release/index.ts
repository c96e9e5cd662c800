import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  FieldErrors,
  Forbidden,
  LtiCourseGradeRelease,
  LtiCourseGradeReleaseInput,
  LtiCourseGradeReleaseParams,
} from '@portal/contract';
import { errorResponses } from '../../../../../lib/route-schemas';
import { currentUser } from '../../../../../plugins/app/auth';
import {
  courseGradeRelease,
  setCourseGradeRelease,
} from '../../../../../services/lti/course-grade-release';

const tags = ['lti'];

/** A refusal of the launch itself (not an instructor's: 403) names the field too. */
const responses = { ...errorResponses, 403: Type.Union([Forbidden, FieldErrors]) } as const;

/**
 * A course's own grade release (issue #23 point 2), on the launch page beside the roster sync and
 * scoped as it is: `global.view_org_reports` (every educator and administrator, no learner), and
 * the caller's own launch into the course of at most a day ago with an instructor or
 * administrator role — anyone else's launch is 404, a learner's launch 403.
 */
const ltiCourseGradeReleaseRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/:launchId',
    {
      config: { permissions: ['global.view_org_reports'] },
      schema: {
        tags,
        summary: "When the grades of the caller's recent launch's course go out, and the default",
        params: LtiCourseGradeReleaseParams,
        response: { 200: LtiCourseGradeRelease, ...responses },
      },
    },
    async (request) => courseGradeRelease(app.db, currentUser(request), request.params.launchId),
  );

  app.put(
    '',
    {
      config: { permissions: ['global.view_org_reports'] },
      schema: {
        tags,
        summary: "Set (or, with null, clear) the course's own grade release",
        body: LtiCourseGradeReleaseInput,
        response: { 200: LtiCourseGradeRelease, ...responses },
      },
    },
    async (request) =>
      setCourseGradeRelease(
        app,
        currentUser(request),
        request.body.launchId,
        request.body.gradeRelease,
      ),
  );
};

export default ltiCourseGradeReleaseRoutes;
