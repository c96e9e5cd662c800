import { useState } from 'react';
import type { FieldErrors, UserPreference } from '@portal/contract';
import {
  Button,
  ErrorBanner,
  PageSpinner,
  SuccessBanner,
  usePageTitle,
  useParams,
  useTranslation,
} from '@portal/shared-ui';
import { Field, fieldErrors, Form, SelectField, type SubmissionErrors } from '@portal/shared-ui/forms';
import { useLookup } from '../../../api/get-lookup';
import { usePreference } from '../api/get-preference';
import { useUpdatePreference } from '../api/update-preference';
import { DataErrorView } from '../../../components/data-error-view';
import { SkinToneField } from './skin-tone-field';

type Outcome = { kind: 'idle' } | { kind: 'saved' } | { kind: 'invalid'; errors: FieldErrors } | { kind: 'failed' };

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
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'idle' });

  const submit = async (value: UserPreference): Promise<SubmissionErrors | undefined> => {
    setOutcome({ kind: 'idle' });
    try {
      const result = await update({ language: value.language, skinTone: value.skinTone ?? null });
      if (result.isSuccess) {
        setOutcome({ kind: 'saved' });
        onSaved(result.data);
        return undefined;
      }
      if (result.error) {
        setOutcome({ kind: 'invalid', errors: result.error });
        // Server messages show under their fields until edited (docs/requirements.md#validation).
        return result.error;
      }
      setOutcome({ kind: 'failed' });
    } catch (error) {
      console.error('Saving preferences failed', error);
      setOutcome({ kind: 'failed' });
    }
    return undefined;
  };

  return (
    <Form<UserPreference>
      onSubmit={submit}
      initialValues={initial}
      render={({ handleSubmit, submitting }) => (
        <form onSubmit={handleSubmit} noValidate>
          <h1>{t('preference.title')}</h1>
          {outcome.kind === 'saved' && (
            <SuccessBanner heading={t('preference.savedHeading')} messages={[t('preference.savedMessage')]} />
          )}
          {outcome.kind === 'failed' && <ErrorBanner errors={[t('preference.saveFailed')]} />}
          {outcome.kind === 'invalid' && (
            <ErrorBanner
              errors={outcome.errors}
              fieldLabels={{ language: t('preference.language'), skinTone: t('preference.skinTone') }}
            />
          )}
          <SelectField
            name="language"
            label={t('preference.language')}
            required
            options={languages}
            placeholder={t('preference.selectLanguage')}
          />
          <Field<number | null> name="skinTone">
            {({ input, meta }) => (
              <SkinToneField
                legend={t('preference.skinTone')}
                options={skinTones}
                value={typeof input.value === 'number' ? input.value : null}
                errors={fieldErrors(meta)}
                onChange={input.onChange}
              />
            )}
          </Field>
          <Button type="submit" disabled={submitting}>
            {t('common.save')}
          </Button>
        </form>
      )}
    />
  );
}
