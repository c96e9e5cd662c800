import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from '@portal/shared-ui';
import styled from 'styled-components';
import { useDebouncedValue } from './use-debounced-value';
import { VisuallyHidden } from '@portal/shared-ui';

const Wrapper = styled.div`
  position: relative;
  max-width: 360px;
  margin-bottom: ${({ theme }) => theme.space.md};

  svg {
    position: absolute;
    left: 12px;
    top: 50%;
    transform: translateY(-50%);
    color: ${({ theme }) => theme.colors.textMuted};
    pointer-events: none;
  }
`;

const Input = styled.input`
  width: 100%;
  min-height: 40px;
  padding: ${({ theme }) => `${theme.space.sm} ${theme.space.md} ${theme.space.sm} 40px`};
  border: 1px solid ${({ theme }) => theme.colors.borderStrong};
  border-radius: ${({ theme }) => theme.radii.sm};
  background: ${({ theme }) => theme.colors.surface};
  color: ${({ theme }) => theme.colors.text};
`;

export interface SearchInputProps {
  /** Called with the text once typing pauses for `delay` ms. */
  onChange: (value: string) => void;
  /** Accessible label; defaults to t('common.search'). Shown only to screen readers. */
  label?: string;
  placeholder?: string;
  defaultValue?: string;
  delay?: number;
  id?: string;
}

export function SearchInput({
  onChange,
  label,
  placeholder,
  defaultValue = '',
  delay = 300,
  id,
}: SearchInputProps) {
  const { t } = useTranslation();
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const [value, setValue] = useState(defaultValue);
  const debounced = useDebouncedValue(value, delay);
  const onChangeRef = useRef(onChange);
  const lastSent = useRef(defaultValue);

  useEffect(() => {
    onChangeRef.current = onChange;
  }, [onChange]);

  useEffect(() => {
    // Only real changes reach the parent, so mounting never resets its page to 1.
    if (debounced === lastSent.current) return;
    lastSent.current = debounced;
    onChangeRef.current(debounced);
  }, [debounced]);

  return (
    <Wrapper>
      <VisuallyHidden as="label" htmlFor={inputId}>
        {label ?? t('common.search')}
      </VisuallyHidden>
      <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
        <circle cx="11" cy="11" r="7" fill="none" stroke="currentColor" strokeWidth="2" />
        <path d="M20 20l-4-4" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      </svg>
      <Input
        id={inputId}
        type="search"
        value={value}
        placeholder={placeholder ?? t('common.searchPlaceholder')}
        onChange={(event) => setValue(event.target.value)}
      />
    </Wrapper>
  );
}
