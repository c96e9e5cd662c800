/** What other packages (e2e, load tests) use of the simulator. */
export { runHeadlessSession, type HeadlessSessionOptions, type HeadlessSessionResult, type HeadlessEvidence } from './headless/run-headless-session';
export { createSessionClient, SessionApiError, type SessionClient } from './session-client';
// The generator lives in @portal/xray (the API's demo seed uses it too); re-exported for callers of the simulator.
export { renderRadiograph, BODY_AREAS, bodyAreaFor, doseAreaProduct, type RenderOptions, type Radiograph } from '@portal/xray';
