import { useId } from 'react';
import { useTranslation } from '@portal/shared-ui';
import styled from 'styled-components';
import type { DownloadGroup } from '@portal/contract';
import { DownloadItem, type FileBackedDownload } from './download-item';

const Section = styled.section`
  margin-bottom: ${({ theme }) => theme.space.lg};
  padding: ${({ theme }) => `${theme.space.md} ${theme.space.lg}`};
  background: ${({ theme }) => theme.colors.surface};
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radii.md};
  box-shadow: ${({ theme }) => theme.shadows.sm};

  h2 {
    margin: ${({ theme }) => `0 0 ${theme.space.sm}`};
    font-size: ${({ theme }) => theme.fontSizes.lg};
  }

  p {
    margin: 0;
    color: ${({ theme }) => theme.colors.textMuted};
  }
`;

const List = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
`;

export interface DownloadGroupSectionProps {
  group: DownloadGroup;
  busyIds: ReadonlySet<number>;
  onDownload: (download: FileBackedDownload) => void;
}

export function DownloadGroupSection({ group, busyIds, onDownload }: DownloadGroupSectionProps) {
  const { t } = useTranslation();
  const headingId = useId();
  return (
    <Section aria-labelledby={headingId}>
      <h2 id={headingId}>{group.name}</h2>
      {group.downloads.length === 0 ? (
        <p>{t('downloads.noDownloadsForGroup')}</p>
      ) : (
        <List>
          {group.downloads.map((download) => (
            <DownloadItem
              key={download.id}
              download={download}
              groupHeadingId={headingId}
              busy={busyIds.has(download.id)}
              onDownload={onDownload}
            />
          ))}
        </List>
      )}
    </Section>
  );
}
