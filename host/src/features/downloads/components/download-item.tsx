import { useId, type MouseEvent, type ReactNode } from 'react';
import styled from 'styled-components';
import type { UserDownload } from '@portal/contract';
import { Button, safeHref, Spinner, useTranslation, VisuallyHidden } from '@portal/shared-ui';
import { OsIcon } from './os-icon';

const Row = styled.li`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: ${({ theme }) => theme.space.sm};
  padding: ${({ theme }) => `${theme.space.sm} 0`};
  border-top: 1px solid ${({ theme }) => theme.colors.border};

  &:first-child {
    border-top: 0;
  }
`;

const Os = styled.span`
  display: inline-flex;
  align-items: center;
  gap: ${({ theme }) => theme.space.sm};
  min-width: 9rem;
  color: ${({ theme }) => theme.colors.textMuted};
`;

const VersionText = styled.span`
  font-weight: ${({ theme }) => theme.fontWeights.medium};
`;

const VersionLink = styled.a`
  font-weight: ${({ theme }) => theme.fontWeights.medium};
  color: ${({ theme }) => theme.colors.primary};

  &[aria-disabled='true'] {
    cursor: progress;
    opacity: 0.7;
  }
`;

/** A download whose installer is stored by the portal, fetched through a signed URL. */
export type FileBackedDownload = UserDownload & { fileId: string };

export interface DownloadItemProps {
  download: UserDownload;
  /** The group heading's id, so the link's description says which simulation it belongs to. */
  groupHeadingId: string;
  busy: boolean;
  onDownload: (download: FileBackedDownload) => void;
}

export function DownloadItem({ download, groupHeadingId, busy, onDownload }: DownloadItemProps) {
  const { t } = useTranslation();
  const osId = useId();
  const newTabId = useId();
  const osLabel = t(`downloads.os.${download.operatingSystem}`);
  const { fileId } = download;
  // Admin-entered: anything but https (or our own storage route) is shown, never linked.
  const fileUrl = safeHref(download.fileUrl);

  let version: ReactNode;
  if (fileId !== null) {
    const onClick = () => {
      if (!busy) onDownload({ ...download, fileId });
    };
    const state = {
      'aria-describedby': `${groupHeadingId} ${osId}`,
      'aria-busy': busy || undefined,
      'aria-disabled': busy || undefined,
    };
    version = (
      <>
        {fileUrl === null ? (
          // No safe declared location to link to: the stored installer through a button only.
          <Button variant="link" {...state} onClick={onClick}>
            {download.version}
          </Button>
        ) : (
          // fileUrl stays the href so a middle click still leads to the version's declared location.
          <VersionLink
            href={fileUrl}
            {...state}
            onClick={(event: MouseEvent<HTMLAnchorElement>) => {
              event.preventDefault();
              onClick();
            }}
          >
            {download.version}
          </VersionLink>
        )}
        {busy && (
          <Spinner
            size={16}
            label={t('downloads.preparing', { version: download.version, os: osLabel })}
          />
        )}
      </>
    );
  } else if (fileUrl !== null) {
    version = (
      <>
        <VersionLink
          href={fileUrl}
          target="_blank"
          rel="noopener noreferrer"
          aria-describedby={`${groupHeadingId} ${osId} ${newTabId}`}
        >
          {download.version}
        </VersionLink>
        <VisuallyHidden id={newTabId}>{t('downloads.opensInNewTab')}</VisuallyHidden>
      </>
    );
  } else {
    version = <VersionText>{download.version}</VersionText>;
  }

  return (
    <Row>
      <Os>
        <OsIcon os={download.operatingSystem} />
        <span id={osId}>{osLabel}</span>
      </Os>
      {version}
    </Row>
  );
}
