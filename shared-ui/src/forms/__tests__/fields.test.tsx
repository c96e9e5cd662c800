import { screen } from '@testing-library/react';
import { axe } from 'jest-axe';
import { renderApp, i18nReady } from '../../test/render';
import { CheckboxField, CheckboxGroupField, DateField, Form, SelectField, TextField, composeValidators, minInteger } from '..';

beforeAll(() => i18nReady);

function renderForm(children: React.ReactNode, { initialValues = {}, onSubmit = jest.fn() } = {}) {
  const view = renderApp(
    <Form
      onSubmit={onSubmit}
      initialValues={initialValues}
      render={({ handleSubmit }) => (
        <form onSubmit={handleSubmit} noValidate>
          {children}
          <button type="submit">Save</button>
        </form>
      )}
    />,
  );
  return { ...view, onSubmit };
}

describe('form fields', () => {
  it('labels each field and shows its required error under it after a submit, tied with aria-describedby', async () => {
    const { user, onSubmit } = renderForm(
      <>
        <TextField name="firstName" label="First name" required />
        <SelectField name="role" label="Role" required placeholder="Select…" options={[{ value: 'learner', label: 'Learner' }]} />
      </>,
    );
    const name = screen.getByRole('textbox', { name: /First name/ });
    expect(name).not.toHaveAttribute('aria-invalid');

    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(onSubmit).not.toHaveBeenCalled();
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveAccessibleDescription('This field is required.');
    expect(screen.getByRole('combobox', { name: /Role/ })).toHaveAccessibleDescription('This field is required.');
  });

  it('checks a field when it is left, and submits the typed values from the keyboard', async () => {
    const { user, onSubmit } = renderForm(
      <>
        <TextField name="seats" label="Seats" required validate={composeValidators(minInteger(0))} />
        <CheckboxField name="isActive" label="Active" />
      </>,
      { initialValues: { isActive: true } },
    );
    await user.tab();
    await user.keyboard('-1');
    await user.tab();
    expect(screen.getByRole('textbox', { name: /Seats/ })).toHaveAccessibleDescription('Ensure this value is greater than or equal to 0.');
    expect(screen.getByRole('checkbox', { name: 'Active' })).toHaveFocus();
    await user.keyboard(' ');

    await user.clear(screen.getByRole('textbox', { name: /Seats/ }));
    await user.type(screen.getByRole('textbox', { name: /Seats/ }), '12{Enter}');

    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(onSubmit.mock.calls[0][0]).toEqual({ seats: '12', isActive: false });
  });

  it('shows the server message of a field until the field is edited again', async () => {
    const onSubmit = jest.fn(() => ({ firstName: ['This field may not be blank.'] }));
    const { user } = renderForm(<TextField name="firstName" label="First name" />, { onSubmit, initialValues: { firstName: ' ' } });
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const field = screen.getByRole('textbox', { name: 'First name' });
    expect(field).toHaveAccessibleDescription('This field may not be blank.');
    await user.type(field, 'A');
    expect(field).not.toHaveAttribute('aria-invalid');
  });
});

describe('every field', () => {
  const everyField = (
    <>
      <TextField name="firstName" label="First name" required help="As on your ID." />
      <SelectField name="role" label="Role" required placeholder="Select…" options={[{ value: 'learner', label: 'Learner' }]} />
      <CheckboxField name="isActive" label="Active" />
      <CheckboxGroupField
        name="entitlements"
        legend="Entitlements"
        required
        options={[
          { value: 1, label: 'Radiography VR' },
          { value: 2, label: 'Radiography Desktop' },
        ]}
      />
      <DateField name="startDate" label="Start date" required />
    </>
  );

  it('passes axe empty and with every error shown', async () => {
    const { container, user } = renderForm(everyField);
    expect(await axe(container)).toHaveNoViolations();
    await user.type(screen.getByRole('textbox', { name: /Start date/ }), '31/02/2026');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByRole('textbox', { name: /Start date/ })).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('group', { name: /Entitlements/ })).toHaveAccessibleDescription('Select at least one option.');
    expect(await axe(container)).toHaveNoViolations();
  });
});

describe('CheckboxGroupField', () => {
  const entitlements = [
    { value: 1, label: 'Radiography VR' },
    { value: 2, label: 'Radiography Desktop' },
  ];

  it('asks for at least one and sends the chosen ids', async () => {
    const { user, onSubmit } = renderForm(<CheckboxGroupField name="entitlements" legend="Entitlements" options={entitlements} required />);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const group = screen.getByRole('group', { name: /Entitlements/ });
    expect(group).toHaveAccessibleDescription('Select at least one option.');
    expect(onSubmit).not.toHaveBeenCalled();

    await user.click(screen.getByRole('checkbox', { name: 'Radiography Desktop' }));
    await user.click(screen.getByRole('checkbox', { name: 'Radiography VR' }));
    await user.click(screen.getByRole('checkbox', { name: 'Radiography Desktop' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit.mock.calls[0][0]).toEqual({ entitlements: [1] });
  });

  it('shows the stored choice', () => {
    renderForm(<CheckboxGroupField name="entitlements" legend="Entitlements" options={entitlements} />, {
      initialValues: { entitlements: [2] },
    });
    expect(screen.getByRole('checkbox', { name: 'Radiography Desktop' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Radiography VR' })).not.toBeChecked();
  });
});

describe('DateField', () => {
  it('shows a yyyy-MM-dd value as dd/MM/yyyy and gives back yyyy-MM-dd', async () => {
    const { user, onSubmit } = renderForm(<DateField name="startDate" label="Start date" required />, {
      initialValues: { startDate: '2026-03-05' },
    });
    const field = screen.getByRole('textbox', { name: /Start date/ });
    expect(field).toHaveValue('05/03/2026');
    await user.clear(field);
    await user.type(field, '31/12/2027');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit.mock.calls[0][0]).toEqual({ startDate: '2027-12-31' });
  });

  it.each(['31/02/2026', '2026-03-05', '5/3/2026', '05/03/26'])('refuses %s with the dd/MM/yyyy message', async (typed) => {
    const { user, onSubmit } = renderForm(<DateField name="expiryDate" label="Expiry date" />);
    await user.type(screen.getByRole('textbox', { name: 'Expiry date' }), typed);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByRole('textbox', { name: 'Expiry date' })).toHaveAccessibleDescription('Enter a valid date in the format dd/MM/yyyy.');
    expect(screen.getByRole('textbox', { name: 'Expiry date' })).toHaveValue(typed);
    expect(onSubmit).not.toHaveBeenCalled();
  });
});
