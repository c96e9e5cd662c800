import { useState } from 'react';
import type { LtiPlatform, LtiRegistrationToken } from '@portal/contract';
import {
  Button,
  ButtonLink,
  ErrorBanner,
  PageSpinner,
  useFormatDate,
  useTranslation,
} from '@portal/shared-ui';
import { usePagedListState, type DataTableColumn } from '@portal/shared-ui/widgets';
import { useAdminBase } from '../../../components/admin-base';
import { PageHeading } from '../../../components/admin-page';
import { FlashBanner } from '../../../components/flash';
import { useEditColumn } from '../../../components/list-section';
import { useOrganisationCrumbs, useOrganisationId } from '../../../components/organisation-context';
import { PagedTable } from '../../../components/paged-table';
import { paths } from '../../../config/paths';
import {
  useCreateRegistrationUrl,
  usePlatforms,
  useToolConfiguration,
} from '../api/learning-platforms';
import { CopyField } from './copy-field';

/**
 * /admin/organisation/{id}/lti (issue #10): the learning platforms whose users become this
 * organisation's, a one-time URL for LTI Dynamic Registration, and the tool's URLs for a manual
 * registration. Global administrators only, as the API's platform routes are (the tab and the
 * route are gated by the same permission).
 */
export function LearningPlatformsPage() {
  const { t } = useTranslation('admin');
  const formatDate = useFormatDate();
  const base = useAdminBase();
  const organisationId = useOrganisationId();
  const list = usePagedListState({ ordering: 'issuer' });
  const result = usePlatforms(organisationId, list.params);
  useOrganisationCrumbs([{ label: t('lti.title') }]);

  const editColumn = useEditColumn<LtiPlatform>(
    (row) => paths.learningPlatform.getHref(base, organisationId, row.id),
    (row) => `${row.issuer} ${row.clientId}`,
  );
  const columns: DataTableColumn<LtiPlatform>[] = [
    { key: 'issuer', header: t('lti.issuer'), sortable: true },
    { key: 'clientId', header: t('lti.clientId'), sortable: true },
    {
      key: 'deploymentIds',
      header: t('lti.deploymentIds'),
      render: (row) =>
        row.deploymentIds.length > 0 ? row.deploymentIds.join(', ') : t('lti.noDeployments'),
    },
    {
      key: 'createdAt',
      header: t('lti.registeredAt'),
      render: (row) => formatDate(row.createdAt, 'dayTime'),
    },
    editColumn,
  ];

  return (
    <>
      <PageHeading
        level={2}
        title={t('lti.title')}
        actions={
          <ButtonLink to={paths.newLearningPlatform.getHref(base, organisationId)}>
            {t('lti.addManually')}
          </ButtonLink>
        }
      />
      <FlashBanner />
      <PagedTable
        list={list}
        result={result}
        columns={columns}
        caption={t('lti.title')}
        searchLabel={t('lti.search')}
      />
      <RegistrationUrl organisationId={organisationId} />
      <ToolConfiguration />
    </>
  );
}

/** Makes the one-time URL a platform administrator pastes into the platform; shown once. */
function RegistrationUrl({ organisationId }: { organisationId: number }) {
  const { t } = useTranslation('admin');
  const formatDate = useFormatDate();
  const create = useCreateRegistrationUrl(organisationId);
  const [made, setMade] = useState<LtiRegistrationToken | null>(null);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);

  const makeUrl = async () => {
    setBusy(true);
    setFailed(false);
    try {
      const result = await create();
      if (result.isSuccess) setMade(result.data);
      else setFailed(true);
    } catch (error) {
      console.error('Creating the registration URL failed', error);
      setFailed(true);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="lti-registration-heading">
      <h3 id="lti-registration-heading">{t('lti.registrationTitle')}</h3>
      <p>{t('lti.registrationIntro')}</p>
      {failed && <ErrorBanner errors={[t('lti.registrationFailed')]} />}
      {made && (
        <CopyField
          label={t('lti.registrationUrl')}
          value={made.url}
          help={t('lti.registrationExpires', { date: formatDate(made.expiresAt, 'dayTime') })}
        />
      )}
      <Button
        variant={made ? 'secondary' : 'primary'}
        onClick={() => void makeUrl()}
        disabled={busy}
      >
        {t(made ? 'lti.registrationAnother' : 'lti.registrationCreate')}
      </Button>
    </section>
  );
}

/** The tool's URLs for platforms registered by hand. */
function ToolConfiguration() {
  const { t } = useTranslation('admin');
  const { data, error } = useToolConfiguration();
  return (
    <section aria-labelledby="lti-tool-heading">
      <h3 id="lti-tool-heading">{t('lti.toolTitle')}</h3>
      <p>{t('lti.toolIntro')}</p>
      {error ? (
        <ErrorBanner errors={[t('lti.toolFailed')]} />
      ) : !data ? (
        <PageSpinner />
      ) : (
        <>
          <CopyField label={t('lti.loginUrl')} value={data.loginUrl} />
          <CopyField
            label={t('lti.launchUrl')}
            value={data.launchUrl}
            help={t('lti.launchUrlHelp')}
          />
          <CopyField label={t('lti.deepLinkingUrl')} value={data.deepLinkingUrl} />
          <CopyField label={t('lti.jwksUrl')} value={data.jwksUrl} />
          <CopyField label={t('lti.domain')} value={data.domain} />
        </>
      )}
    </section>
  );
}
