import { useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import styled, { css } from 'styled-components';
import { useTranslation } from '@portal/shared-ui';
import { NavLink } from '@portal/shared-ui';

const tabLook = css`
  display: inline-block;
  padding: ${({ theme }) => `${theme.space.sm} ${theme.space.md}`};
  border: 0;
  border-bottom: 3px solid transparent;
  background: none;
  color: ${({ theme }) => theme.colors.text};
  font: inherit;
  font-weight: ${({ theme }) => theme.fontWeights.medium};
  text-decoration: none;
  cursor: pointer;

  &[aria-current='page'],
  &[aria-selected='true'] {
    border-bottom-color: ${({ theme }) => theme.colors.primary};
    color: ${({ theme }) => theme.colors.primary};
  }

  &:focus-visible {
    outline: 3px solid ${({ theme }) => theme.colors.focus};
    outline-offset: 2px;
  }
`;

const Bar = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space.xs};
  margin: ${({ theme }) => `0 0 ${theme.space.lg}`};
  padding: 0;
  border-bottom: 1px solid ${({ theme }) => theme.colors.border};
  list-style: none;
`;

const TabLink = styled(NavLink)`
  ${tabLook}
`;

const TabButton = styled.button`
  ${tabLook}
`;

export interface TabLinkItem {
  to: string;
  label: string;
  /** Active only on exactly this path, not below it (an index tab). */
  end?: boolean;
  /** Shown only to a user holding any one of these permissions. */
  anyOf?: readonly string[];
}

export interface TabLinksProps {
  tabs: readonly TabLinkItem[];
  /** Names the navigation; t('tabs.label') by default. */
  label?: string;
  /** shared-auth's `usePermissions()`; without it, tabs asking for permissions are hidden. */
  hasPermission?: (anyOf: readonly string[]) => boolean;
}

/**
 * Routed tabs (e.g. an organisation's details, licences, users): links in a navigation landmark,
 * the current one marked aria-current="page". Links, not a tablist, because each opens a URL:
 * Tab moves between them and the browser's history works.
 */
export function TabLinks({ tabs, label, hasPermission }: TabLinksProps) {
  const { t } = useTranslation();
  const visible = tabs.filter(
    (tab) => !tab.anyOf || tab.anyOf.length === 0 || (hasPermission?.(tab.anyOf) ?? false),
  );
  return (
    <nav aria-label={label ?? t('tabs.label')}>
      <Bar as="ul">
        {visible.map((tab) => (
          <li key={tab.to}>
            <TabLink to={tab.to} end={tab.end}>
              {tab.label}
            </TabLink>
          </li>
        ))}
      </Bar>
    </nav>
  );
}

export interface TabItem {
  id: string;
  label: string;
  content: ReactNode;
}

export interface TabsProps {
  tabs: readonly TabItem[];
  /** Names the tab list. */
  label: string;
  /** Controlled selection; uncontrolled (first tab) when absent. */
  selected?: string;
  onSelect?: (id: string) => void;
}

/**
 * In-page tabs (WAI-ARIA tabs pattern): one tab stop for the list, Left/Right arrows move and
 * select (wrapping), Home/End go to the ends; the panel is labelled by its tab and focusable.
 */
export function Tabs({ tabs, label, selected, onSelect }: TabsProps) {
  const baseId = useId();
  const [own, setOwn] = useState(tabs[0]?.id);
  const current = selected ?? own;
  const refs = useRef(new Map<string, HTMLButtonElement>());
  const select = (id: string) => {
    setOwn(id);
    onSelect?.(id);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const last = tabs.length - 1;
    const next =
      event.key === 'ArrowRight'
        ? index === last
          ? 0
          : index + 1
        : event.key === 'ArrowLeft'
          ? index === 0
            ? last
            : index - 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null;
    if (next === null) return;
    event.preventDefault();
    const tab = tabs[next];
    if (!tab) return;
    select(tab.id);
    refs.current.get(tab.id)?.focus();
  };
  const active = tabs.find((tab) => tab.id === current) ?? tabs[0];
  return (
    <div>
      <Bar role="tablist" aria-label={label}>
        {tabs.map((tab, index) => {
          const isSelected = tab.id === active?.id;
          return (
            <TabButton
              key={tab.id}
              ref={(el) => {
                if (el) refs.current.set(tab.id, el);
                else refs.current.delete(tab.id);
              }}
              type="button"
              role="tab"
              id={`${baseId}-tab-${tab.id}`}
              aria-selected={isSelected}
              aria-controls={`${baseId}-panel-${tab.id}`}
              tabIndex={isSelected ? 0 : -1}
              onClick={() => select(tab.id)}
              onKeyDown={(event) => onKeyDown(event, index)}
            >
              {tab.label}
            </TabButton>
          );
        })}
      </Bar>
      {active && (
        <div
          role="tabpanel"
          id={`${baseId}-panel-${active.id}`}
          aria-labelledby={`${baseId}-tab-${active.id}`}
          tabIndex={0}
        >
          {active.content}
        </div>
      )}
    </div>
  );
}
