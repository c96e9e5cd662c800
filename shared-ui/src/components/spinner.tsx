import { useTranslation } from '../i18n/react-i18next';
import styled, { keyframes } from 'styled-components';
import { VisuallyHidden } from './visually-hidden';

const spin = keyframes`
  to { transform: rotate(360deg); }
`;

const Svg = styled.svg`
  animation: ${spin} 0.9s linear infinite;
  color: ${({ theme }) => theme.colors.primary};
`;

export interface SpinnerProps {
  /** Diameter in px. */
  size?: number;
  /** Screen-reader text; defaults to "Loading...". */
  label?: string;
  className?: string;
}

export function Spinner({ size = 32, label, className }: SpinnerProps) {
  const { t } = useTranslation();
  return (
    <span role="status" className={className}>
      <Svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
        <circle cx="12" cy="12" r="10" fill="none" stroke="currentColor" strokeOpacity="0.2" strokeWidth="3" />
        <path d="M12 2a10 10 0 0 1 10 10" fill="none" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
      </Svg>
      <VisuallyHidden>{label ?? t('common.loading')}</VisuallyHidden>
    </span>
  );
}

const Centre = styled.div`
  display: flex;
  align-items: center;
  justify-content: center;
  min-height: 60vh;
  padding: ${({ theme }) => theme.space.xl};
`;

/** A spinner centred in the page, for whole-page loading states. */
export function PageSpinner({ label }: { label?: string }) {
  return (
    <Centre>
      <Spinner size={48} label={label} />
    </Centre>
  );
}
