import { useEffect, useState, type FormEvent } from 'react';
import type { FieldErrors, UserPreference } from '@portal/contract';
import {
  Button,
  ErrorBanner,
  PageSpinner,
  SelectField,
  SuccessBanner,
  usePageTitle,
  useParams,
  useTranslation,
} from '@portal/shared-ui';
import { useLookup } from '../../lookup/api/get-lookup';
import { usePreference } from '../api/get-preference';
import { useUpdatePreference } from '../api/update-preference';
import { DataErrorView } from '../../errors/components/data-error-view';
import { SkinToneField } from './skin-tone-field';

type Outcome = { kind: 'idle' } | { kind: 'saved' } | { kind: 'invalid'; errors: FieldErrors } | { kind: 'failed' };

export function validatePreference(value: UserPreference): FieldErrors {
  const errors: FieldErrors = {};
  if (!value.language) errors.language = ['This field is required.'];
  return errors;
}

export function PreferencePage() {
  const { userId = '' } = useParams<{ userId: string }>();
  const { t, i18n } = useTranslation();
  usePageTitle(t('preference.title'));
  const preference = usePreference(userId);
  const languages = useLookup('language');
  const skinTones = useLookup('skinTone');

  if (preference.error) return <DataErrorView error={preference.error} />;
  if (languages.error) return <DataErrorView error={languages.error} />;
  if (skinTones.error) return <DataErrorView error={skinTones.error} />;
  if (!preference.data || !languages.data || !skinTones.data) return <PageSpinner />;

  return (
    <PreferenceForm
      userId={userId}
      initial={preference.data}
      languages={languages.data.map((l) => ({ value: l.code ?? String(l.id), label: l.name }))}
      skinTones={skinTones.data}
      onSaved={(saved) => {
        if (saved.language !== i18n.language) void i18n.changeLanguage(saved.language);
      }}
    />
  );
}

interface PreferenceFormProps {
  userId: string;
  initial: UserPreference;
  languages: { value: string; label: string }[];
  skinTones: NonNullable<ReturnType<typeof useLookup>['data']>;
  onSaved: (saved: UserPreference) => void;
}

function PreferenceForm({ userId, initial, languages, skinTones, onSaved }: PreferenceFormProps) {
  const { t } = useTranslation();
  const update = useUpdatePreference(userId);
  const [value, setValue] = useState<UserPreference>(initial);
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'idle' });
  const [saving, setSaving] = useState(false);

  useEffect(() => setValue(initial), [initial]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const errors = validatePreference(value);
    if (Object.keys(errors).length > 0) {
      setOutcome({ kind: 'invalid', errors });
      return;
    }
    setSaving(true);
    try {
      const result = await update(value);
      if (result.isSuccess) {
        setOutcome({ kind: 'saved' });
        onSaved(result.data);
      } else if (result.error) {
        setOutcome({ kind: 'invalid', errors: result.error });
      } else {
        setOutcome({ kind: 'failed' });
      }
    } catch (error) {
      console.error('Saving preferences failed', error);
      setOutcome({ kind: 'failed' });
    } finally {
      setSaving(false);
    }
  };

  const fieldErrors = outcome.kind === 'invalid' ? outcome.errors : {};
  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <h1>{t('preference.title')}</h1>
      {outcome.kind === 'saved' && <SuccessBanner heading={t('preference.savedHeading')} messages={[t('preference.savedMessage')]} />}
      {outcome.kind === 'failed' && <ErrorBanner errors={[t('preference.saveFailed')]} />}
      {outcome.kind === 'invalid' && (
        <ErrorBanner
          errors={outcome.errors}
          fieldLabels={{ language: t('preference.language'), skinTone: t('preference.skinTone') }}
        />
      )}
      <SelectField
        label={t('preference.language')}
        name="language"
        required
        options={languages}
        placeholder={t('preference.selectLanguage')}
        value={value.language}
        error={fieldErrors.language}
        onChange={(e) => setValue((v) => ({ ...v, language: e.target.value }))}
      />
      <SkinToneField
        legend={t('preference.skinTone')}
        options={skinTones}
        value={value.skinTone}
        errors={fieldErrors.skinTone}
        onChange={(skinTone) => setValue((v) => ({ ...v, skinTone }))}
      />
      <Button type="submit" disabled={saving}>
        {t('common.save')}
      </Button>
    </form>
  );
}
