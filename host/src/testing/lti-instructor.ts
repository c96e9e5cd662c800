import { currentUser } from './fixtures';

/** An instructor's launch as the launch page tests open it. */
export const INSTRUCTOR_LAUNCH_ID = '7d3f6c1e-2a4b-4c5d-8e9f-0a1b2c3d4e5f';
export const instructorLaunchRoute = `/lti/launch?launchId=${INSTRUCTOR_LAUNCH_ID}&productId=1`;

/** An educator, who may sync rosters and set a course's grade release. */
export const instructor = (language = 'en') =>
  currentUser({
    roleName: 'educator',
    language,
    permissions: ['global.access_sims', 'global.view_org_reports'],
  });
