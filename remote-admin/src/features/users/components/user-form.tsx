import { useState } from 'react';
import { USER_ADMIN_MESSAGES, USER_EMAIL_MAX_LENGTH, USER_NAME_MAX_LENGTH, type AdminUser, type LookupItem } from '@portal/contract';
import { useTranslation } from '@portal/shared-ui';
import { composeValidators, Form, maxLength, TextField, type Validator } from '@portal/shared-ui/forms';
import { useAdminBase } from '../../../components/admin-base';
import { FormFieldset, SaveActions, SaveBanners } from '../../../components/form-layout';
import { paths } from '../../../config/paths';
import { submitSave, type SaveOutcome } from '../../../lib/save';
import { useUpdateUser } from '../api/update-user';
import { RoleSelectField } from './role-select-field';

interface UserFormValues {
  firstName: string;
  lastName: string;
  email: string;
  userRole: string;
}

// One "@", something on each side, a dot in the domain: the API has the last word.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const emailRule: Validator<string> = (value) =>
  typeof value === 'string' && value.trim() !== '' && !EMAIL.test(value.trim()) ? USER_ADMIN_MESSAGES.invalidEmail : undefined;

const nameRule = maxLength(USER_NAME_MAX_LENGTH);
const emailRules = composeValidators<string>(emailRule, maxLength(USER_EMAIL_MAX_LENGTH) as Validator<string>);

export interface UserFormProps {
  organisationId: number;
  user: AdminUser;
  roles: readonly LookupItem[];
  readOnly?: boolean;
}

/** docs/requirements.md#data, #validation: a user's names, e-mail and role; saving shows "User details saved". */
export function UserForm({ organisationId, user, roles, readOnly = false }: UserFormProps) {
  const { t } = useTranslation('admin');
  const base = useAdminBase();
  const update = useUpdateUser(user.id);
  const [outcome, setOutcome] = useState<SaveOutcome>({ kind: 'idle' });
  const labels = {
    firstName: t('user.firstName'),
    lastName: t('user.lastName'),
    email: t('user.email'),
    userRole: t('user.role'),
  };
  return (
    <Form<UserFormValues>
      initialValues={{ firstName: user.firstName, lastName: user.lastName, email: user.email ?? '', userRole: String(user.userRole) }}
      onSubmit={(values) =>
        submitSave(
          () =>
            update({
              firstName: values.firstName.trim(),
              lastName: values.lastName.trim(),
              email: values.email.trim(),
              userRole: Number(values.userRole),
            }),
          {
            setOutcome,
            onSaved: (saved) =>
              setOutcome({
                kind: 'saved',
                // A new e-mail is only pending: say where the confirmation link went.
                message:
                  saved.pendingEmail !== null && saved.pendingEmail === values.email.trim().toLowerCase()
                    ? t('emailChange.requested', { email: saved.pendingEmail })
                    : t('user.saved'),
              }),
          },
        )
      }
      render={({ handleSubmit, submitting }) => (
        <form onSubmit={handleSubmit} noValidate aria-label={t('user.details')}>
          <SaveBanners outcome={outcome} fieldLabels={labels} />
          <FormFieldset disabled={readOnly || submitting}>
            <TextField name="firstName" label={labels.firstName} required validate={nameRule} autoComplete="off" />
            <TextField name="lastName" label={labels.lastName} required validate={nameRule} autoComplete="off" />
            <TextField
              name="email"
              label={labels.email}
              type="email"
              required={user.email !== null}
              validate={emailRules}
              autoComplete="off"
              help={t(user.email === null ? 'user.noEmailHelp' : 'emailChange.help')}
            />
            <RoleSelectField name="userRole" label={labels.userRole} roles={roles} />
          </FormFieldset>
          {!readOnly && <SaveActions cancelTo={paths.users.getHref(base, organisationId)} submitting={submitting} />}
        </form>
      )}
    />
  );
}
