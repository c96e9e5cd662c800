import { useTranslation } from '../i18n/react-i18next';
import styled from 'styled-components';
import { useTranslateErrorMessage } from './error-message';

const Banner = styled.div<{ $tone: 'success' | 'error' }>`
  margin: ${({ theme }) => `0 0 ${theme.space.md}`};
  padding: ${({ theme }) => `${theme.space.md} ${theme.space.lg}`};
  border: 1px solid;
  border-left-width: 6px;
  border-radius: ${({ theme }) => theme.radii.sm};
  ${({ theme, $tone }) =>
    $tone === 'success'
      ? `background: ${theme.colors.successBackground}; color: ${theme.colors.successText}; border-color: ${theme.colors.success};`
      : `background: ${theme.colors.errorBackground}; color: ${theme.colors.errorText}; border-color: ${theme.colors.danger};`}

  h2 {
    margin: 0;
    font-size: ${({ theme }) => theme.fontSizes.md};
  }

  ul {
    margin: ${({ theme }) => `${theme.space.sm} 0 0`};
    padding-left: ${({ theme }) => theme.space.lg};
  }
`;

export interface SuccessBannerProps {
  heading: string;
  messages?: readonly string[];
}

export function SuccessBanner({ heading, messages = [] }: SuccessBannerProps) {
  return (
    <Banner $tone="success" role="status">
      <h2>{heading}</h2>
      {messages.length > 0 && (
        <ul>
          {messages.map((message, i) => (
            <li key={i}>{message}</li>
          ))}
        </ul>
      )}
    </Banner>
  );
}

/** A list of messages, or a DRF-style `{field: ["message"]}` body. */
export type BannerErrors = readonly string[] | Readonly<Record<string, readonly string[] | string>>;

export interface ErrorBannerProps {
  /** Defaults to t('submissionErrorsHeading'). */
  heading?: string;
  errors: BannerErrors;
  /** Display names for field keys; a field without one is shown by its key. */
  fieldLabels?: Readonly<Record<string, string>>;
}

/** Keys of a 400 body that are about the whole request, not one field. */
const GENERAL_KEYS = new Set(['non_field_errors', 'detail']);

export function ErrorBanner({ heading, errors, fieldLabels = {} }: ErrorBannerProps) {
  const { t } = useTranslation();
  const translate = useTranslateErrorMessage();

  const items: string[] = Array.isArray(errors)
    ? errors.map(translate)
    : Object.entries(errors as Record<string, readonly string[] | string>).flatMap(([field, messages]) => {
        const list = typeof messages === 'string' ? [messages] : messages;
        return list.map((message) =>
          GENERAL_KEYS.has(field)
            ? translate(message)
            : `${fieldLabels[field] ?? field}: ${translate(message)}`,
        );
      });

  if (items.length === 0) return null;
  return (
    <Banner $tone="error" role="alert">
      <h2>{heading ?? t('submissionErrorsHeading')}</h2>
      <ul>
        {items.map((item, i) => (
          <li key={i}>{item}</li>
        ))}
      </ul>
    </Banner>
  );
}
