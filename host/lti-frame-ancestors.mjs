// The learning platforms that may frame the host's /lti/ pages: the list lives in the service kit,
// which the identity provider shares for the pages of a launch's brokered sign-in.
export { createLtiFrameAncestors, FRAME_ORIGINS_TTL_MS, isFrameOrigin } from '@portal/static-server';
