import { screen } from '@testing-library/react';
import { axe } from 'jest-axe';
import { useState } from 'react';
import { Breadcrumbs } from '../breadcrumbs';
import { ConfirmDialog } from '../../widgets/confirm-dialog';
import { StatusPill } from '../../widgets/status-pill';
import { TabLinks, Tabs } from '../../widgets/tabs';
import { Button } from '../button';
import { i18nReady, renderApp } from '../../test/render';

beforeAll(() => i18nReady);

const held = (permissions: string[]) => (anyOf: readonly string[]) => anyOf.some((p) => permissions.includes(p));

describe('Breadcrumbs', () => {
  const items = [
    { label: 'Administration', to: '/admin/organisation', anyOf: ['global.client_access_admin_section'] },
    { label: 'Users', to: '/admin/organisation/1/user', anyOf: ['global.view_user', 'global.create_user'] },
    { label: 'Lena Learner' },
  ];

  it('shows a crumb to a user holding any one of its permissions, and the page as current', () => {
    renderApp(<Breadcrumbs items={items} hasPermission={held(['global.create_user', 'global.client_access_admin_section'])} />);
    const nav = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(nav).toHaveTextContent('Administration/Users/Lena Learner');
    expect(screen.getByRole('link', { name: 'Users' })).toHaveAttribute('href', '/admin/organisation/1/user');
    expect(screen.getByText('Lena Learner')).toHaveAttribute('aria-current', 'page');
  });

  it('hides a crumb whose permissions the user lacks, and every guarded crumb without a check', () => {
    const { unmount } = renderApp(<Breadcrumbs items={items} hasPermission={held(['global.client_access_admin_section'])} />);
    expect(screen.queryByRole('link', { name: 'Users' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Administration' })).toBeInTheDocument();
    unmount();
    renderApp(<Breadcrumbs items={items} />);
    expect(screen.getByRole('navigation')).toHaveTextContent(/^Lena Learner$/);
  });

  it('passes axe', async () => {
    const { container } = renderApp(
      <Breadcrumbs items={items} hasPermission={held(['global.create_user', 'global.client_access_admin_section'])} />,
    );
    expect(await axe(container)).toHaveNoViolations();
  });
});

describe('Tabs', () => {
  const tabs = [
    { id: 'details', label: 'Details', content: <p>Details panel</p> },
    { id: 'licences', label: 'Licences', content: <p>Licences panel</p> },
    { id: 'users', label: 'Users', content: <p>Users panel</p> },
  ];

  it('is a labelled tab list whose panel is labelled by the selected tab', () => {
    renderApp(<Tabs tabs={tabs} label="Organisation" />);
    expect(screen.getByRole('tablist', { name: 'Organisation' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Details' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tabpanel', { name: 'Details' })).toHaveTextContent('Details panel');
  });

  it('is one tab stop; arrows, Home and End move and select, wrapping at the ends', async () => {
    const onSelect = jest.fn();
    const { user } = renderApp(
      <>
        <Tabs tabs={tabs} label="Organisation" onSelect={onSelect} />
        <button>After</button>
      </>,
    );
    await user.tab();
    expect(screen.getByRole('tab', { name: 'Details' })).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Licences' })).toHaveFocus();
    expect(screen.getByRole('tabpanel')).toHaveTextContent('Licences panel');
    await user.keyboard('{End}');
    expect(screen.getByRole('tab', { name: 'Users' })).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Details' })).toHaveFocus();
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByRole('tab', { name: 'Users' })).toHaveFocus();
    await user.keyboard('{Home}');
    expect(screen.getByRole('tab', { name: 'Details' })).toHaveFocus();
    expect(onSelect.mock.calls.map(([id]) => id)).toEqual(['licences', 'users', 'details', 'users', 'details']);
    await user.tab();
    expect(screen.getByRole('tabpanel')).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'After' })).toHaveFocus();
  });

  it('passes axe, also after another tab is selected', async () => {
    const { container, user } = renderApp(<Tabs tabs={tabs} label="Organisation" />);
    expect(await axe(container)).toHaveNoViolations();
    await user.click(screen.getByRole('tab', { name: 'Users' }));
    expect(screen.getByRole('tabpanel', { name: 'Users' })).toBeInTheDocument();
    expect(await axe(container)).toHaveNoViolations();
  });
});

describe('TabLinks', () => {
  const tabs = [
    { to: '/admin/organisation/1', label: 'Details', end: true },
    { to: '/admin/organisation/1/license', label: 'Licences', anyOf: ['global.view_license_block'] },
    { to: '/admin/organisation/1/user', label: 'Users', anyOf: ['global.view_user'] },
  ];

  it('marks the tab of the current route with aria-current and navigates from the keyboard', async () => {
    const { user } = renderApp(
      <TabLinks tabs={tabs} hasPermission={held(['global.view_license_block', 'global.view_user'])} />,
      { route: '/admin/organisation/1/license/4' },
    );
    expect(screen.getByRole('navigation', { name: 'Sections' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Licences' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: 'Details' })).not.toHaveAttribute('aria-current');

    await user.tab();
    await user.tab();
    await user.tab();
    expect(screen.getByRole('link', { name: 'Users' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(screen.getByRole('link', { name: 'Users' })).toHaveAttribute('aria-current', 'page');
  });

  it('hides the tabs a user may not open', () => {
    renderApp(<TabLinks tabs={tabs} hasPermission={held(['global.view_user'])} />, { route: '/admin/organisation/1' });
    expect(screen.getAllByRole('link').map((l) => l.textContent)).toEqual(['Details', 'Users']);
  });

  it('passes axe', async () => {
    const { container } = renderApp(
      <TabLinks tabs={tabs} hasPermission={held(['global.view_license_block', 'global.view_user'])} />,
      { route: '/admin/organisation/1/license/4' },
    );
    expect(await axe(container)).toHaveNoViolations();
  });
});

describe('ConfirmDialog', () => {
  function Confirm({ busy = false, onConfirm = jest.fn() }) {
    const [open, setOpen] = useState(false);
    return (
      <>
        <Button onClick={() => setOpen(true)}>Delete user</Button>
        <ConfirmDialog
          open={open}
          title="Delete user?"
          message="Lena Learner loses access."
          confirmLabel="Delete"
          busy={busy}
          onConfirm={onConfirm}
          onCancel={() => setOpen(false)}
        />
      </>
    );
  }

  it('is labelled by its title, traps focus and cancels on Escape, giving focus back', async () => {
    const { user } = renderApp(<Confirm />);
    await user.click(screen.getByRole('button', { name: 'Delete user' }));
    expect(screen.getByRole('dialog', { name: 'Delete user?' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Delete' })).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete user' })).toHaveFocus();
  });

  it('can be neither confirmed nor cancelled while the confirmed action runs', async () => {
    const onConfirm = jest.fn();
    const { user } = renderApp(<Confirm busy onConfirm={onConfirm} />);
    await user.click(screen.getByRole('button', { name: 'Delete user' }));
    expect(screen.getByRole('button', { name: 'Delete' })).toBeDisabled();
    await user.keyboard('{Escape}');
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('passes axe while open, idle and busy', async () => {
    // The dialog is portalled to <body>, outside the render container.
    const { user, unmount } = renderApp(<Confirm />);
    await user.click(screen.getByRole('button', { name: 'Delete user' }));
    expect(await axe(document.body)).toHaveNoViolations();
    unmount();
    const busy = renderApp(<Confirm busy />);
    await busy.user.click(screen.getByRole('button', { name: 'Delete user' }));
    expect(screen.getByRole('button', { name: 'Delete' })).toBeDisabled();
    expect(await axe(document.body)).toHaveNoViolations();
  });
});

describe('StatusPill', () => {
  it('says active or inactive in words, not by colour alone', () => {
    renderApp(
      <>
        <StatusPill active />
        <StatusPill active={false} />
      </>,
    );
    expect(screen.getByText('Active')).toBeInTheDocument();
    expect(screen.getByText('Inactive')).toBeInTheDocument();
  });

  it('passes axe', async () => {
    const { container } = renderApp(
      <>
        <StatusPill active />
        <StatusPill active={false} />
      </>,
    );
    expect(await axe(container)).toHaveNoViolations();
  });
});
