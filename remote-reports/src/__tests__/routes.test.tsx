import { screen } from '@testing-library/react';
import { setupTestServer } from '../testing/msw-server';
import { renderRemote } from '../testing/render-remote';
import { paged, serveReportList } from '../testing/report-fixtures';

const server = setupTestServer();

beforeEach(() => {
  serveReportList(server, '/api/v1/report', () => paged([]));
  serveReportList(server, '/api/v1/report/learner', () => paged([]));
});

describe('reports routes', () => {
  it('show "Your reports" without the learner tab to a learner', async () => {
    renderRemote({ server, permissions: ['global.view_own_reports'] });

    expect(await screen.findByRole('heading', { name: 'Your reports', level: 1 })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Learner reports' })).not.toBeInTheDocument();
  });

  it('offer the learner reports tab to those who may view organisation reports', async () => {
    renderRemote({ server, permissions: ['global.view_own_reports', 'global.view_org_reports'] });

    expect(await screen.findByRole('link', { name: 'Learner reports' })).toHaveAttribute('href', '/report/learner');
    expect(screen.getByRole('link', { name: 'Your reports' })).toHaveAttribute('href', '/report');
  });

  it('refuse the learner reports list to a learner', async () => {
    renderRemote({ server, path: '/report/learner', permissions: ['global.view_own_reports'] });

    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
  });

  it('show the learner reports list with view_all_reports', async () => {
    renderRemote({ server, path: '/report/learner', permissions: ['global.view_all_reports'] });

    expect(await screen.findByRole('heading', { name: 'Learner reports', level: 1 })).toBeInTheDocument();
  });
});

describe('insight and progress tabs (issue #23 point 4)', () => {
  it('offer a learner their progress but not the cohort insight', async () => {
    renderRemote({ server, permissions: ['global.view_own_reports'] });

    expect(await screen.findByRole('link', { name: 'Your progress' })).toHaveAttribute('href', '/report/progress');
    expect(screen.queryByRole('link', { name: 'Insight' })).not.toBeInTheDocument();
  });

  it('offer an educator the cohort insight', async () => {
    renderRemote({ server, permissions: ['global.view_own_reports', 'global.view_org_reports'] });

    expect(await screen.findByRole('link', { name: 'Insight' })).toHaveAttribute('href', '/report/insight');
  });
});

describe('reports links', () => {
  it('point at the mount path from a deeper screen too', async () => {
    renderRemote({ server, path: '/report/learner', permissions: ['global.view_org_reports'] });

    expect(await screen.findByRole('link', { name: 'Your reports' })).toHaveAttribute('href', '/report');
    expect(screen.getByRole('link', { name: 'Learner reports' })).toHaveAttribute('href', '/report/learner');
  });
});
