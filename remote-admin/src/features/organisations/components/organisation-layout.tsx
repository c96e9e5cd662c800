import { NotFoundError } from '@portal/shared-auth';
import {
  Breadcrumbs,
  NotFoundView,
  Outlet,
  SkeletonBar,
  SomethingWentWrongView,
  usePageTitle,
  useParams,
  useTranslation,
  VisuallyHidden,
  type BreadcrumbItem,
} from '@portal/shared-ui';
import { TabLinks } from '@portal/shared-ui/widgets';
import { useAdminBase } from '../../../components/admin-base';
import { OrganisationFrameProvider } from '../../../components/organisation-context';
import { paths } from '../../../config/paths';
import {
  MANAGE_LEARNING_PLATFORMS,
  VIEW_LICENCES,
  VIEW_NOTIFICATIONS,
  VIEW_ORGANISATIONS,
  VIEW_USERS,
} from '../../../config/permissions';
import { useCrumbPermissions } from '../../../lib/use-crumb-permissions';
import { useOrganisation } from '../api/get-organisation';

/**
 * docs/requirements.md#administration: every screen of one organisation shows its name, breadcrumbs rooted at Administration
 * and the tabs details, licences, users, activity; the screens below add their own crumbs.
 */
export function OrganisationLayout() {
  const { organisationId: raw = '' } = useParams<{ organisationId: string }>();
  const organisationId = /^\d{1,10}$/.test(raw) ? Number(raw) : null;
  if (organisationId === null) return <NotFoundView />;
  return (
    <OrganisationFrameProvider organisationId={organisationId}>
      {(crumbs) => <OrganisationFrame organisationId={organisationId} crumbs={crumbs} />}
    </OrganisationFrameProvider>
  );
}

function OrganisationFrame({
  organisationId,
  crumbs,
}: {
  organisationId: number;
  crumbs: readonly BreadcrumbItem[];
}) {
  const { t } = useTranslation('admin');
  const base = useAdminBase();
  const can = useCrumbPermissions();
  const { data, error } = useOrganisation(organisationId);
  const lastCrumb = crumbs.at(-1)?.label;
  usePageTitle(lastCrumb ?? data?.name ?? t('organisation.details'));

  // 403/404: not an organisation this user may see (the API hides others' as 404).
  if (error instanceof NotFoundError) return <NotFoundView />;
  if (error) return <SomethingWentWrongView />;

  const name = data?.name ?? '';
  return (
    <section>
      <Breadcrumbs
        hasPermission={can}
        items={[
          { label: t('administration'), to: paths.organisations.getHref(base) },
          {
            label: t('organisations'),
            to: paths.organisations.getHref(base),
            anyOf: VIEW_ORGANISATIONS,
          },
          ...(data
            ? [{ label: name, to: paths.organisation.getHref(base, organisationId) }, ...crumbs]
            : []),
        ]}
      />
      {data ? (
        <h1>{name}</h1>
      ) : (
        <h1 aria-busy="true">
          <VisuallyHidden>{t('common.loading')}</VisuallyHidden>
          <SkeletonBar aria-hidden="true" style={{ width: '40%', height: '1em' }} />
        </h1>
      )}
      <TabLinks
        label={t('organisation.tabs')}
        hasPermission={can}
        tabs={[
          {
            to: paths.organisation.getHref(base, organisationId),
            label: t('organisation.details'),
            end: true,
          },
          {
            to: paths.licences.getHref(base, organisationId),
            label: t('licences.title'),
            anyOf: VIEW_LICENCES,
          },
          {
            to: paths.users.getHref(base, organisationId),
            label: t('users.title'),
            anyOf: VIEW_USERS,
          },
          { to: paths.activity.getHref(base, organisationId), label: t('activity.title') },
          {
            to: paths.organisationNotifications.getHref(base, organisationId),
            label: t('notifications'),
            anyOf: VIEW_NOTIFICATIONS,
          },
          {
            to: paths.learningPlatforms.getHref(base, organisationId),
            label: t('lti.title'),
            anyOf: MANAGE_LEARNING_PLATFORMS,
          },
        ]}
      />
      <Outlet />
    </section>
  );
}
