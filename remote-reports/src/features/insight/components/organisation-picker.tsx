import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import styled from 'styled-components';
import type { Organisation } from '@portal/contract';
import { useTranslation, VisuallyHidden } from '@portal/shared-ui';
import { FieldShell, useDebouncedValue, type FieldError } from '@portal/shared-ui/widgets';
import { ORGANISATION_SEARCH_DELAY_MS, useOrganisation, useOrganisationSearch } from '../api/get-filter-options';

const Box = styled.div`
  position: relative;
`;

const Input = styled.input`
  width: 100%;
  min-height: 40px;
  padding: ${({ theme }) => `${theme.space.sm} ${theme.space.md}`};
  border: 1px solid ${({ theme }) => theme.colors.borderStrong};
  border-radius: ${({ theme }) => theme.radii.sm};
  background: ${({ theme }) => theme.colors.surface};
  color: ${({ theme }) => theme.colors.text};

  &[aria-invalid='true'] {
    border-color: ${({ theme }) => theme.colors.danger};
    border-width: 2px;
  }
`;

const Popup = styled.div`
  position: absolute;
  z-index: ${({ theme }) => theme.zIndices.overlay};
  top: 100%;
  left: 0;
  right: 0;
  margin-top: ${({ theme }) => theme.space.xxs};
  border: 1px solid ${({ theme }) => theme.colors.borderStrong};
  border-radius: ${({ theme }) => theme.radii.sm};
  background: ${({ theme }) => theme.colors.surface};
  box-shadow: ${({ theme }) => theme.shadows.md};
`;

const List = styled.ul`
  max-height: 280px;
  overflow-y: auto;
  margin: 0;
  padding: ${({ theme }) => theme.space.xs} 0;
  list-style: none;
`;

const Option = styled.li`
  display: flex;
  flex-direction: column;
  padding: ${({ theme }) => `${theme.space.xs} ${theme.space.md}`};
  cursor: pointer;

  small {
    color: ${({ theme }) => theme.colors.textMuted};
  }

  &[data-chosen='true'] {
    font-weight: ${({ theme }) => theme.fontWeights.bold};
  }

  /* The option the arrow keys reached: the input keeps focus (aria-activedescendant). */
  &[aria-selected='true'] {
    outline: 2px solid ${({ theme }) => theme.colors.focus};
    outline-offset: -2px;
    background: ${({ theme }) => theme.colors.surfaceMuted};
  }
`;

const Hint = styled.p`
  margin: 0;
  padding: ${({ theme }) => `${theme.space.xs} ${theme.space.md}`};
  border-top: 1px solid ${({ theme }) => theme.colors.border};
  color: ${({ theme }) => theme.colors.textMuted};
  font-size: ${({ theme }) => theme.fontSizes.sm};
`;

export interface OrganisationPickerProps {
  /** The form field's name: a hidden input carries the chosen organisation's id. */
  name: string;
  label: string;
  help?: string;
  error?: FieldError;
  /** The chosen organisation's id as the URL has it ('' for none). */
  defaultValue: string;
}

type Choice = Pick<Organisation, 'id' | 'name'>;

/**
 * A global administrator's choice of organisation, among any number of them: a text box that
 * searches the organisation list as one types (the list API's `filter`, debounced) and a listbox
 * of the matches (the WAI-ARIA combobox pattern: arrows move, Enter chooses, Escape closes and
 * then restores the chosen name). The chosen id goes into the form by a hidden input; leaving the
 * box without choosing puts the chosen name back, so the box always shows what "Apply" applies.
 */
export function OrganisationPicker({ name, label, help, error, defaultValue }: OrganisationPickerProps) {
  const { t } = useTranslation('reports');
  const listId = useId();
  // The organisation of the URL: its name is read once (the URL holds only the id).
  const current = useOrganisation(defaultValue);
  // null until the user chooses; 'none' once they emptied the box.
  const [chosen, setChosen] = useState<Choice | 'none' | null>(null);
  // null until the user types: the box shows the chosen (or the URL's) organisation's name.
  const [typed, setTyped] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const listRef = useRef<HTMLUListElement>(null);

  const selected: Choice | null =
    chosen === 'none' ? null : (chosen ?? (current.data ? { id: current.data.id, name: current.data.name } : null));
  const selectedId = chosen === 'none' ? '' : chosen ? String(chosen.id) : defaultValue;
  const text = typed ?? selected?.name ?? '';
  const query = useDebouncedValue(typed ?? '', ORGANISATION_SEARCH_DELAY_MS).trim();
  const search = useOrganisationSearch(open ? query : null);
  const options = open ? (search.data?.results ?? []) : [];
  const total = search.data?.count ?? 0;
  const optionId = (index: number) => `${listId}-option-${index}`;

  useEffect(() => {
    if (active < 0) return;
    // jsdom has no scrollIntoView.
    listRef.current?.querySelector<HTMLElement>(`[data-index="${active}"]`)?.scrollIntoView?.({ block: 'nearest' });
  }, [active]);

  const choose = (option: Choice) => {
    setChosen({ id: option.id, name: option.name });
    setTyped(null);
    setOpen(false);
    setActive(-1);
  };
  const close = () => {
    setOpen(false);
    setActive(-1);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        if (!open) setOpen(true);
        else if (options.length > 0) setActive((i) => (i + 1) % options.length);
        break;
      case 'ArrowUp':
        event.preventDefault();
        if (!open) setOpen(true);
        else if (options.length > 0) setActive((i) => (i <= 0 ? options.length - 1 : i - 1));
        break;
      case 'Enter': {
        const option = open ? options[active] : undefined;
        // Enter on an option chooses it; otherwise it submits the form as in any text box.
        if (option) {
          event.preventDefault();
          choose(option);
        }
        break;
      }
      case 'Escape':
        if (open) {
          // Inside a dialog or a page that closes on Escape, only the list closes.
          event.preventDefault();
          event.stopPropagation();
          close();
        } else if (typed !== null) {
          event.preventDefault();
          setTyped(null);
        }
        break;
      default:
        break;
    }
  };

  let status = '';
  if (open && search.data && !search.isLoading) {
    if (total === 0) status = t('insight.organisationPicker.none');
    else if (total > options.length) status = t('insight.organisationPicker.some', { shown: options.length, count: total });
    else status = t('insight.organisationPicker.all', { count: total });
  }

  return (
    <FieldShell label={label} help={help} error={error}>
      {(ids) => (
        <Box>
          <Input
            id={ids.id}
            type="text"
            role="combobox"
            autoComplete="off"
            spellCheck={false}
            aria-autocomplete="list"
            aria-expanded={open}
            aria-controls={listId}
            aria-activedescendant={open && active >= 0 ? optionId(active) : undefined}
            aria-describedby={ids.describedBy}
            aria-invalid={ids.invalid || undefined}
            placeholder={t('insight.organisationPicker.placeholder')}
            value={text}
            onChange={(event) => {
              setTyped(event.target.value);
              setOpen(true);
              setActive(-1);
            }}
            onClick={() => setOpen(true)}
            onKeyDown={onKeyDown}
            onBlur={() => {
              close();
              // An emptied box chooses none; any other text not chosen goes back to the choice.
              if (typed !== null && typed.trim() === '') setChosen('none');
              setTyped(null);
            }}
          />
          <input type="hidden" name={name} value={selectedId} />
          <Popup hidden={!open || options.length === 0}>
            <List ref={listRef} id={listId} role="listbox" aria-label={label}>
              {options.map((option, index) => (
                <Option
                  key={option.id}
                  id={optionId(index)}
                  role="option"
                  data-index={index}
                  data-chosen={String(option.id) === selectedId}
                  // As the combobox pattern has it: the option the arrows reached is the selected one.
                  aria-selected={index === active}
                  // Keep the focus in the box: the click chooses, the blur must not come first.
                  onMouseDown={(event) => event.preventDefault()}
                  onClick={() => choose(option)}
                >
                  {option.name}
                  {option.city && <small>{option.city}</small>}
                </Option>
              ))}
            </List>
            {total > options.length && <Hint>{t('insight.organisationPicker.narrow')}</Hint>}
          </Popup>
          <VisuallyHidden role="status" aria-live="polite">
            {status}
          </VisuallyHidden>
        </Box>
      )}
    </FieldShell>
  );
}
