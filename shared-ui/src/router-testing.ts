// Memory routers for tests only (`@portal/shared-ui/router-testing`). Kept out of the main entry so
// that production, which only uses browser routers, does not ship them; jest resolves the same
// react-router module as ./router, so tests still run on the one router instance.
export { createMemoryRouter, MemoryRouter } from 'react-router-dom';
