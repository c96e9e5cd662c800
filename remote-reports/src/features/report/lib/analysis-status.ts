import { useCallback } from 'react';
import { useTranslation } from '@portal/shared-ui';
import type { LookupItem } from '@portal/contract';
import { ANALYSIS_STATUS } from '../../../config/constants';

const KEYS: Readonly<Record<number, string>> = {
  [ANALYSIS_STATUS.notAnalysed]: 'analysisStatus.notAnalysed',
  [ANALYSIS_STATUS.accepted]: 'analysisStatus.accepted',
  [ANALYSIS_STATUS.rejected]: 'analysisStatus.rejected',
};

/**
 * The name of an analysis status in the interface language. The lookup's names are English
 * only; a status the portal does not know yet shows the lookup's name.
 */
export function useAnalysisStatusLabel(lookup: readonly LookupItem[] | undefined) {
  const { t } = useTranslation('reports');
  return useCallback(
    (id: number) => {
      const key = KEYS[id];
      if (key) return t(key);
      return lookup?.find((item) => item.id === id)?.name ?? String(id);
    },
    [lookup, t],
  );
}
