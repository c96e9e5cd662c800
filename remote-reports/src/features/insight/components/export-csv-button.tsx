import { useId, useState } from 'react';
import type { InsightQuery } from '@portal/contract';
import { useAuth } from '@portal/shared-auth';
import { Button, useTranslation } from '@portal/shared-ui';
import { insightExportPath } from '../api/get-insight';

/** The file name the export is saved under: organisation and range, so several exports do not collide. */
export const exportFileName = (organisationId: number, from: string, to: string) =>
  `insight-${organisationId}-${from}-${to}.csv`;

/**
 * "Export CSV": the API asks for the bearer token, which a plain link cannot send, so the file is
 * fetched with it and handed to the browser as a download (the API streams it; the bytes are kept
 * as they are, BOM included).
 */
export function ExportCsvButton({ organisationId, query, from, to }: { organisationId: number; query: InsightQuery; from: string; to: string }) {
  const { t } = useTranslation('reports');
  const { getAccessToken } = useAuth();
  const [state, setState] = useState<'idle' | 'busy' | 'failed'>('idle');
  const errorId = useId();

  const download = async () => {
    setState('busy');
    try {
      const token = await getAccessToken();
      const response = await fetch(insightExportPath(organisationId, query), {
        headers: { Accept: 'text/csv', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
        credentials: 'same-origin',
      });
      if (!response.ok) throw new Error(`export answered ${response.status}`);
      const url = URL.createObjectURL(await response.blob());
      const link = document.createElement('a');
      link.href = url;
      link.download = exportFileName(organisationId, from, to);
      document.body.append(link);
      link.click();
      link.remove();
      // After the click has handed the file over; revoking at once can cancel it in some browsers.
      setTimeout(() => URL.revokeObjectURL(url), 0);
      setState('idle');
    } catch {
      setState('failed');
    }
  };

  return (
    <div>
      <Button type="button" variant="secondary" onClick={() => void download()} disabled={state === 'busy'} aria-describedby={state === 'failed' ? errorId : undefined}>
        {state === 'busy' ? t('insight.exporting') : t('insight.export')}
      </Button>
      {state === 'failed' && (
        <p id={errorId} role="alert">
          {t('insight.exportFailed')}
        </p>
      )}
    </div>
  );
}
