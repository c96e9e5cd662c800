import { useState } from 'react';
import type { LookupItem } from '@portal/contract';
import { useTranslation } from '@portal/shared-ui';
import { ConfirmDialog, SelectField as SelectControl } from '@portal/shared-ui/widgets';
import { fieldErrors, required, useField } from '@portal/shared-ui/forms';
import { isSysAdminRole, useRoleLabel } from '../../../lib/roles';

export interface RoleSelectFieldProps {
  name: string;
  label: string;
  roles: readonly LookupItem[];
}

/**
 * The role of the `roles` lookup. Choosing the system administrator, who may do everything in
 * every organisation, takes effect only once confirmed (docs/requirements.md#validation); cancelling keeps the old role.
 */
export function RoleSelectField({ name, label, roles }: RoleSelectFieldProps) {
  const { t } = useTranslation('admin');
  const roleLabel = useRoleLabel();
  const { input, meta } = useField<string>(name, { validate: (value) => required(value) });
  const [pending, setPending] = useState<LookupItem | null>(null);

  const choose = (value: string) => {
    const role = roles.find((r) => String(r.id) === value);
    if (isSysAdminRole(role) && value !== input.value) setPending(role ?? null);
    else input.onChange(value);
  };

  return (
    <>
      <SelectControl
        {...input}
        label={label}
        required
        placeholder={t('select')}
        options={roles.map((role) => ({ value: String(role.id), label: roleLabel(role.name) }))}
        value={input.value ?? ''}
        onChange={(event) => choose(event.target.value)}
        error={fieldErrors(meta)}
      />
      <ConfirmDialog
        open={pending !== null}
        title={t('sysAdminConfirm.title')}
        message={t('sysAdminConfirm.message', {
          role: pending ? roleLabel(pending.name) : '',
        })}
        confirmLabel={t('sysAdminConfirm.confirm')}
        onConfirm={() => {
          if (pending) input.onChange(String(pending.id));
          setPending(null);
        }}
        onCancel={() => setPending(null)}
      />
    </>
  );
}
