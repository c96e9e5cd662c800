import { createRoot } from 'react-dom/client';
import { initI18n, RouterProvider } from '@portal/shared-ui';
import { fetchRuntimeConfig } from './config/runtime-config';
import { AppProviders } from './app/providers';
import { createAppRouter } from './app/router';
import { registerPortalRemotes } from './federation/remotes';
import { FramedView } from './components/framed-view';
import { mayRunFramed, signInCallbackBase } from './components/may-run-framed';
import { StartupFailure } from './components/startup-failure';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
const root = createRoot(container);

async function start() {
  const [configResult] = await Promise.allSettled([fetchRuntimeConfig(), initI18n()]);
  // docs/requirements.md#outside-the-layout: the portal does not run inside a frame; it shows "page not found" instead,
  // but for the LTI pages a learning platform embeds (issue #22 point 2).
  if (window.top !== window.self && !mayRunFramed(window.location.pathname)) {
    root.render(<FramedView />);
    return;
  }
  if (configResult.status === 'rejected') {
    console.error('Could not start the portal', configResult.reason);
    root.render(<StartupFailure />);
    return;
  }
  const config = configResult.value;
  document.title = config.productName;
  registerPortalRemotes(config.remotes);
  root.render(
    <AppProviders config={config} callbackBase={signInCallbackBase(window.location.pathname)}>
      <RouterProvider router={createAppRouter()} />
    </AppProviders>,
  );
}

void start();
