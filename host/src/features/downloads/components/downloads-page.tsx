import { useCallback, useState } from 'react';
import type { DownloadGroup } from '@portal/contract';
import { useAuth } from '@portal/shared-auth';
import { ErrorBanner, safeHref, usePageTitle, useParams, useTranslation } from '@portal/shared-ui';
import { DataErrorView } from '../../../components/data-error-view';
import { PageNotFoundPage } from '../../../components/page-not-found-page';
import { useUserDownloads } from '../api/get-user-downloads';
import { useGetInstallerFile } from '../api/get-installer-file';
import { saveFile } from '../save-file';
import { DownloadGroupSection } from './download-group-section';
import type { FileBackedDownload } from './download-item';
import { DownloadsSkeleton } from './downloads-skeleton';

/**
 * Simulation installers of the signed-in user. Another user's id is "not found" rather than
 * forbidden, like every other place the portal hides what a user may not see.
 */
export function DownloadsPage() {
  const { userId } = useParams<{ userId: string }>();
  const { user } = useAuth();
  if (!user || !userId || user.id !== userId) return <PageNotFoundPage />;
  return <OwnDownloads userId={userId} />;
}

function OwnDownloads({ userId }: { userId: string }) {
  const { t } = useTranslation();
  usePageTitle(t('downloads.title'));
  const downloads = useUserDownloads(userId);
  const { busyIds, failedVersion, download } = useInstallerDownload();

  let content;
  if (downloads.error) content = <DataErrorView error={downloads.error} />;
  else if (!downloads.data) content = <DownloadsSkeleton />;
  else content = <DownloadGroups groups={downloads.data} busyIds={busyIds} onDownload={download} />;

  return (
    <>
      <h1>{t('downloads.title')}</h1>
      {failedVersion !== null && (
        <ErrorBanner
          heading={t('downloads.failedHeading')}
          errors={[t('downloads.failedMessage', { version: failedVersion })]}
        />
      )}
      {content}
    </>
  );
}

function DownloadGroups({
  groups,
  busyIds,
  onDownload,
}: {
  groups: readonly DownloadGroup[];
  busyIds: ReadonlySet<number>;
  onDownload: (download: FileBackedDownload) => void;
}) {
  const { t } = useTranslation();
  if (groups.length === 0) {
    return (
      <section aria-labelledby="no-downloads">
        <h2 id="no-downloads">{t('downloads.noDownloadsHeading')}</h2>
        <p>{t('downloads.noDownloadsMessage')}</p>
      </section>
    );
  }
  return groups.map((group) => (
    <DownloadGroupSection key={group.id} group={group} busyIds={busyIds} onDownload={onDownload} />
  ));
}

/** Fetches a fresh signed URL per click and hands it to the browser; tracks which are in flight. */
function useInstallerDownload() {
  const getInstallerFile = useGetInstallerFile();
  const [busyIds, setBusyIds] = useState<ReadonlySet<number>>(() => new Set());
  const [failedVersion, setFailedVersion] = useState<string | null>(null);

  const download = useCallback(
    async ({ id, fileId, version }: FileBackedDownload) => {
      setFailedVersion(null);
      setBusyIds((ids) => new Set(ids).add(id));
      try {
        const result = await getInstallerFile(fileId);
        if (!result.isSuccess) throw new Error(`Unexpected answer for installer file ${fileId}`);
        // The click follows whatever URL the API answered: only a signed storage or https URL.
        const url = safeHref(result.data.url);
        if (url === null) throw new Error(`Refused the URL answered for installer file ${fileId}`);
        saveFile(url, result.data.originalName);
      } catch (error) {
        console.error('Downloading the installer failed', error);
        setFailedVersion(version);
      } finally {
        setBusyIds((ids) => {
          const next = new Set(ids);
          next.delete(id);
          return next;
        });
      }
    },
    [getInstallerFile],
  );

  return { busyIds, failedVersion, download: (d: FileBackedDownload) => void download(d) };
}
