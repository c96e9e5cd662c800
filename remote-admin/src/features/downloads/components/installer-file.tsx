import { useState } from 'react';
import { Button, ErrorBanner, safeHref, useTranslation } from '@portal/shared-ui';
import { useGetInstallerFile } from '../api/get-installer-file';

/** Hands a signed URL to the browser as a download under the file's own name. */
function saveFile(url: string, name: string) {
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
}

/**
 * docs/requirements.md#administration: the stored installer with a download action. Each click asks for a fresh
 * signed URL (they expire within minutes) and follows it only if it is https or the portal's own
 * storage route.
 */
export function InstallerFile({ fileId, originalName }: { fileId: string; originalName: string }) {
  const { t } = useTranslation('admin');
  const getInstallerFile = useGetInstallerFile();
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);

  const download = async () => {
    setFailed(false);
    setBusy(true);
    try {
      const result = await getInstallerFile(fileId);
      const url = result.isSuccess ? safeHref(result.data.url) : null;
      if (!result.isSuccess || url === null) throw new Error(`No usable URL for installer file ${fileId}`);
      saveFile(url, result.data.originalName);
    } catch (error) {
      console.error('Downloading the installer failed', error);
      setFailed(true);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div>
      <Button variant="secondary" onClick={() => void download()} disabled={busy} aria-label={t('download.downloadFile', { name: originalName })}>
        {t('download.downloadButton')}
      </Button>
      {failed && <ErrorBanner errors={[t('download.downloadFailed')]} />}
    </div>
  );
}
