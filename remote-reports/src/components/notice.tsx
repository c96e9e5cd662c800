import styled from 'styled-components';

/** A list's or screen's message in place of its content: "No records found", a load error, an empty range. */
export const Notice = styled.p<{ $error?: boolean }>`
  padding: ${({ theme }) => theme.space.xl};
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radii.md};
  background: ${({ theme }) => theme.colors.surface};
  text-align: center;
  color: ${({ theme, $error }) => ($error ? theme.colors.errorText : theme.colors.textMuted)};
`;
