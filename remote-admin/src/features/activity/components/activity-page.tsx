import { useCallback, useMemo } from 'react';
import type { AuditEntry, LookupField, LookupList } from '@portal/contract';
import { useFormatDate, useTranslation, VisuallyHidden } from '@portal/shared-ui';
import { usePagedListState, type DataTableColumn } from '@portal/shared-ui/widgets';
import { useLookup } from '../../../api/get-lookup';
import { PageHeading } from '../../../components/admin-page';
import { useOrganisationCrumbs, useOrganisationId } from '../../../components/organisation-context';
import { PagedTable } from '../../../components/paged-table';
import { useOrganisationAudit } from '../api/get-audit';
import { changedFields, isSystemActor, objectLabel } from './audit-changes';

/** Fields of the audited objects that hold lookup ids, and their lookup. */
const LOOKUP_OF: Readonly<Record<string, LookupField>> = {
  country: 'country',
  defaultLanguage: 'language',
  learningManagementSystem: 'learning_management_system',
  radiationUnitSystem: 'radiation_units',
  measurementStandard: 'measurement_standard',
  duration: 'license_duration',
  entitlements: 'entitlement',
  userRole: 'roles',
};

/** `nameOf` for the changes column: lookup ids by their names, once the lookups have loaded. */
function useLookupNames() {
  const lookups = {
    country: useLookup('country').data,
    language: useLookup('language').data,
    learning_management_system: useLookup('learning_management_system').data,
    radiation_units: useLookup('radiation_units').data,
    measurement_standard: useLookup('measurement_standard').data,
    license_duration: useLookup('license_duration').data,
    entitlement: useLookup('entitlement').data,
    roles: useLookup('roles').data,
  } satisfies Partial<Record<LookupField, LookupList | undefined>>;
  const signature = Object.values(lookups)
    .map((l) => l?.length ?? -1)
    .join();
  const names = useMemo(() => {
    const byField = new Map<string, Map<number, string>>();
    for (const [field, items] of Object.entries(lookups))
      byField.set(field, new Map((items ?? []).map((i) => [i.id, i.name])));
    return byField;
    // The lists change only by loading; their lengths say when.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed by the lists' lengths above
  }, [signature]);
  return useCallback(
    (field: string, id: number) => {
      const lookup = LOOKUP_OF[field];
      return lookup ? names.get(lookup)?.get(id) : undefined;
    },
    [names],
  );
}

/**
 * /admin/organisation/{id}/activity: who changed what in the organisation and when (the audit
 * log of its own details, licences, seats and users), newest first, with what an update changed.
 */
export function ActivityPage() {
  const { t } = useTranslation('admin');
  // docs/requirements.md#limits-and-defaults dates with the time (the history is read to the minute), in the reader's conventions.
  const formatDate = useFormatDate();
  const organisationId = useOrganisationId();
  const list = usePagedListState({ ordering: '-at' });
  const result = useOrganisationAudit(organisationId, list.params);
  useOrganisationCrumbs([{ label: t('activity.title') }]);

  const nameOf = useLookupNames();
  const how = {
    empty: t('activity.empty'),
    count: (n: number) => t('activity.items', { count: n }),
    nameOf,
  };
  const columns: DataTableColumn<AuditEntry>[] = [
    {
      key: 'at',
      header: t('activity.when'),
      sortable: true,
      render: (row) => <time dateTime={row.at}>{formatDate(row.at, 'dayTime')}</time>,
    },
    {
      key: 'actorName',
      header: t('activity.who'),
      sortable: true,
      render: (row) =>
        isSystemActor(row) ? (
          t('activity.system')
        ) : (
          <>
            {row.actorName}
            <br />
            <small>{row.actorEmail}</small>
          </>
        ),
    },
    {
      key: 'action',
      header: t('activity.action'),
      sortable: true,
      render: (row) => t(`activity.actions.${row.action}`, { defaultValue: row.action }),
    },
    {
      key: 'entityType',
      header: t('activity.what'),
      sortable: true,
      render: (row) => (
        <>
          {t(`activity.entities.${row.entityType}`, { defaultValue: row.entityType })}:{' '}
          {objectLabel(row)}
        </>
      ),
    },
    {
      key: 'changes',
      header: t('activity.changes'),
      render: (row) => {
        const changes = changedFields(row, how);
        if (changes.length === 0) return null;
        return (
          <ul style={{ margin: 0, paddingLeft: '1rem' }}>
            {changes.map((c) => (
              <li key={c.field}>
                {t(`activity.fields.${c.field}`, { defaultValue: c.field })}:{' '}
                <del>{c.before}</del>
                <VisuallyHidden> {t('activity.changedTo')} </VisuallyHidden>
                <span aria-hidden="true"> → </span>
                <ins>{c.after}</ins>
              </li>
            ))}
          </ul>
        );
      },
    },
  ];

  return (
    <>
      <PageHeading level={2} title={t('activity.title')} />
      <PagedTable
        list={list}
        result={result}
        columns={columns}
        caption={t('activity.title')}
        searchLabel={t('activity.search')}
      />
    </>
  );
}
