/** What other packages (e2e, load tests) use of the simulator. */
export { runHeadlessSession, type HeadlessSessionOptions, type HeadlessSessionResult, type HeadlessEvidence } from './headless/run-headless-session';
export { createSessionClient, SessionApiError, type SessionClient } from './session-client';
export { renderRadiograph, type RenderOptions, type Radiograph } from './xray/render';
export { BODY_AREAS, bodyAreaFor } from './xray/body-areas';
export { doseAreaProduct } from './xray/physics';
