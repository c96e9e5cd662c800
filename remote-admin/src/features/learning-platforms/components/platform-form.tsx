import { useState } from 'react';
import {
  LTI_FRAME_ORIGINS_MAX,
  LTI_URL_MAX_LENGTH,
  parseFrameOrigin,
  type LtiPlatform,
  type LtiPlatformInput,
} from '@portal/contract';
import type { ApiResult } from '@portal/shared-auth';
import { useTranslation } from '@portal/shared-ui';
import { CheckboxField, Form, maxLength, TextField } from '@portal/shared-ui/forms';
import { useAdminBase } from '../../../components/admin-base';
import { FormFieldset, SaveActions, SaveBanners } from '../../../components/form-layout';
import { paths } from '../../../config/paths';
import { submitSave, type SaveOutcome } from '../../../lib/save';

export interface PlatformFormValues {
  issuer: string;
  clientId: string;
  authLoginUrl: string;
  accessTokenUrl: string;
  jwksUrl: string;
  /** Comma-separated, as typed. */
  deploymentIds: string;
  verifiesEmail: boolean;
  /** Separated by commas, spaces or lines, as typed. */
  frameOrigins: string;
  tokenAudience: string;
}

const listOf = (typed: string, separator: RegExp) =>
  typed
    .split(separator)
    .map((d) => d.trim())
    .filter((d) => d !== '');

const toFormValues = (platform?: LtiPlatform): PlatformFormValues => ({
  issuer: platform?.issuer ?? '',
  clientId: platform?.clientId ?? '',
  authLoginUrl: platform?.authLoginUrl ?? '',
  accessTokenUrl: platform?.accessTokenUrl ?? '',
  jwksUrl: platform?.jwksUrl ?? '',
  deploymentIds: platform?.deploymentIds.join(', ') ?? '',
  verifiesEmail: platform?.verifiesEmail ?? false,
  frameOrigins: platform?.frameOrigins.join(', ') ?? '',
  tokenAudience: platform?.tokenAudience ?? '',
});

const toInput = (values: PlatformFormValues, organisationId: number): LtiPlatformInput => ({
  issuer: values.issuer.trim(),
  clientId: values.clientId.trim(),
  authLoginUrl: values.authLoginUrl.trim(),
  accessTokenUrl: values.accessTokenUrl.trim(),
  jwksUrl: values.jwksUrl.trim(),
  deploymentIds: listOf(values.deploymentIds, /,/),
  organisationId,
  verifiesEmail: values.verifiesEmail,
  frameOrigins: listOf(values.frameOrigins, /[,\s]+/),
  tokenAudience: values.tokenAudience.trim() || null,
});

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** Every wrong origin named at once, as the API names them; the same rule (contract). */
const frameOriginsRule = (t: Translate) => (typed: string | undefined) => {
  const origins = listOf(typed ?? '', /[,\s]+/);
  if (origins.length > LTI_FRAME_ORIGINS_MAX) return t('lti.frameOrigin.tooMany', { max: LTI_FRAME_ORIGINS_MAX });
  const problems = origins.flatMap((origin) => {
    const parsed = parseFrameOrigin(origin);
    return 'problem' in parsed ? [t(`lti.frameOrigin.${parsed.problem}`, { origin })] : [];
  });
  return problems.length > 0 ? problems.join(' ') : undefined;
};


const urlMax = maxLength(LTI_URL_MAX_LENGTH);
const idMax = maxLength(255);

export interface PlatformFormProps {
  organisationId: number;
  platform?: LtiPlatform;
  save: (input: LtiPlatformInput) => Promise<ApiResult<LtiPlatform>>;
  onCreated?: (platform: LtiPlatform) => void;
}

/** A learning platform registered by hand: what its administrator's screen shows for the tool. */
export function PlatformForm({ organisationId, platform, save, onCreated }: PlatformFormProps) {
  const { t } = useTranslation('admin');
  const base = useAdminBase();
  const [outcome, setOutcome] = useState<SaveOutcome>({ kind: 'idle' });
  const isNew = !platform;

  const labels: Record<keyof PlatformFormValues | 'organisationId', string> = {
    issuer: t('lti.issuer'),
    clientId: t('lti.clientId'),
    authLoginUrl: t('lti.authLoginUrl'),
    accessTokenUrl: t('lti.accessTokenUrl'),
    jwksUrl: t('lti.platformJwksUrl'),
    deploymentIds: t('lti.deploymentIds'),
    verifiesEmail: t('lti.verifiesEmail'),
    frameOrigins: t('lti.frameOrigins'),
    tokenAudience: t('lti.tokenAudience'),
    organisationId: t('lti.organisation'),
  };

  return (
    <Form<PlatformFormValues>
      initialValues={toFormValues(platform)}
      onSubmit={(values) =>
        submitSave(() => save(toInput(values, organisationId)), {
          setOutcome,
          onSaved: (saved) => {
            if (isNew) onCreated?.(saved);
            else setOutcome({ kind: 'saved', message: t('lti.saved') });
          },
        })
      }
      render={({ handleSubmit, submitting }) => (
        <form onSubmit={handleSubmit} noValidate aria-label={t(isNew ? 'lti.new' : 'lti.details')}>
          <SaveBanners outcome={outcome} fieldLabels={labels} />
          <FormFieldset disabled={submitting}>
            <TextField name="issuer" label={labels.issuer} required validate={urlMax} help={t('lti.issuerHelp')} />
            <TextField name="clientId" label={labels.clientId} required validate={idMax} />
            <TextField name="authLoginUrl" label={labels.authLoginUrl} required validate={urlMax} />
            <TextField name="accessTokenUrl" label={labels.accessTokenUrl} required validate={urlMax} />
            <TextField name="jwksUrl" label={labels.jwksUrl} required validate={urlMax} />
            <TextField name="deploymentIds" label={labels.deploymentIds} help={t('lti.deploymentIdsHelp')} />
            <CheckboxField name="verifiesEmail" label={labels.verifiesEmail} help={t('lti.verifiesEmailHelp')} />
            <TextField
              name="frameOrigins"
              label={labels.frameOrigins}
              validate={frameOriginsRule(t)}
              help={t('lti.frameOriginsHelp')}
            />
            <TextField name="tokenAudience" label={labels.tokenAudience} validate={urlMax} help={t('lti.tokenAudienceHelp')} />
          </FormFieldset>
          <SaveActions cancelTo={paths.learningPlatforms.getHref(base, organisationId)} submitting={submitting} isNew={isNew} />
        </form>
      )}
    />
  );
}
