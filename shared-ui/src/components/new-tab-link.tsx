import type { AnchorHTMLAttributes, ReactNode } from 'react';
import { useTranslation } from '../i18n/react-i18next';
import { VisuallyHidden } from './visually-hidden';

export type NewTabLinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'target' | 'rel'> & {
  href: string;
  children: ReactNode;
};

/**
 * A link that opens in a new tab and says so, with an arrow to the eye and in words to screen readers (WCAG 3.2.5 advisory, issue #12),
 * without the opened page getting a handle on ours.
 */
export function NewTabLink({ children, ...anchor }: NewTabLinkProps) {
  const { t } = useTranslation();
  return (
    <a {...anchor} target="_blank" rel="noopener noreferrer">
      {children}
      <span aria-hidden="true"> ↗</span>
      <VisuallyHidden> ({t('common.opensInNewTab')})</VisuallyHidden>
    </a>
  );
}
