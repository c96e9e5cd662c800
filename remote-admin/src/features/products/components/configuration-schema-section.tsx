import { useId, useState, type FormEvent, type ReactNode } from 'react';
import styled from 'styled-components';
import { usePermissions } from '@portal/shared-auth';
import { Button, ErrorBanner, Spinner, SuccessBanner, useTranslation } from '@portal/shared-ui';
import { FieldShell } from '@portal/shared-ui/widgets';
import { MANAGE_VALIDATION_SCHEMA } from '../../../config/permissions';
import { useConfigurationSchema, useUpdateConfigurationSchema } from '../api/configuration-schema';

const Section = styled.section`
  margin-top: ${({ theme }) => theme.space.xl};
`;

const TextArea = styled.textarea`
  width: 100%;
  min-height: 240px;
  padding: ${({ theme }) => `${theme.space.sm} ${theme.space.md}`};
  border: 1px solid ${({ theme }) => theme.colors.borderStrong};
  border-radius: ${({ theme }) => theme.radii.sm};
  background: ${({ theme }) => theme.colors.surface};
  color: ${({ theme }) => theme.colors.text};
  font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  font-size: ${({ theme }) => theme.fontSizes.sm};
  resize: vertical;

  &[aria-invalid='true'] {
    border-color: ${({ theme }) => theme.colors.danger};
    border-width: 2px;
  }
`;

type Outcome =
  | { kind: 'idle' }
  | { kind: 'saved' }
  | { kind: 'invalid'; messages: string[] }
  | { kind: 'failed' };

/**
 * The product's configuration JSON Schema, under its configurations (global administrators:
 * `global.manage_validation_schema`, as the API asks). Edited as JSON text; the API checks it is a
 * JSON Schema and names the JSON path of each problem, shown under the field.
 */
export function ConfigurationSchemaSection({ productId }: { productId: number }) {
  const { t } = useTranslation('admin');
  const can = usePermissions();
  const allowed = can(MANAGE_VALIDATION_SCHEMA);
  const { data, error } = useConfigurationSchema(productId, allowed);
  if (!allowed) return null;
  return (
    <SchemaFrame>
      {error ? (
        <ErrorBanner errors={[t('configurationSchema.loadFailed')]} />
      ) : !data ? (
        <Spinner />
      ) : (
        <SchemaForm key={productId} productId={productId} schema={data.schema} />
      )}
    </SchemaFrame>
  );
}

function SchemaFrame({ children }: { children: ReactNode }) {
  const { t } = useTranslation('admin');
  const headingId = useId();
  return (
    <Section aria-labelledby={headingId}>
      <h2 id={headingId}>{t('configurationSchema.title')}</h2>
      {children}
    </Section>
  );
}

function SchemaForm({ productId, schema }: { productId: number; schema: Record<string, unknown> }) {
  const { t } = useTranslation('admin');
  const save = useUpdateConfigurationSchema(productId);
  const [text, setText] = useState(() => JSON.stringify(schema, null, 2));
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'idle' });
  const [saving, setSaving] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      setOutcome({ kind: 'invalid', messages: [t('configurationSchema.notJson')] });
      return;
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      setOutcome({ kind: 'invalid', messages: [t('configurationSchema.notObject')] });
      return;
    }
    setSaving(true);
    try {
      const result = await save({ schema: parsed as Record<string, unknown> });
      if (result.isSuccess) setOutcome({ kind: 'saved' });
      else if (result.isError && result.error && typeof result.error === 'object')
        setOutcome({ kind: 'invalid', messages: Object.values(result.error).flat() });
      else setOutcome({ kind: 'failed' });
    } catch (error) {
      console.error('Saving the configuration schema failed', error);
      setOutcome({ kind: 'failed' });
    } finally {
      setSaving(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate aria-label={t('configurationSchema.title')}>
      {outcome.kind === 'saved' && <SuccessBanner heading={t('configurationSchema.saved')} />}
      {outcome.kind === 'failed' && (
        <ErrorBanner errors={[t('configurationSchema.saveFailed')]} />
      )}
      <FieldShell
        label={t('configurationSchema.label')}
        help={t('configurationSchema.help')}
        error={outcome.kind === 'invalid' ? outcome.messages : undefined}
      >
        {(ids) => (
          <TextArea
            id={ids.id}
            aria-describedby={ids.describedBy}
            aria-invalid={ids.invalid}
            spellCheck={false}
            value={text}
            onChange={(event) => setText(event.target.value)}
          />
        )}
      </FieldShell>
      <Button type="submit" disabled={saving}>
        {t('configurationSchema.save')}
      </Button>
    </form>
  );
}
