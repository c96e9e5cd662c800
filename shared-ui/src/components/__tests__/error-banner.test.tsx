import { screen, within } from '@testing-library/react';
import i18next from 'i18next';
import { ErrorBanner, SuccessBanner } from '../banners';
import { TextField } from '../../widgets/form-fields';
import { renderApp } from '../../test/render';

beforeAll(() => {
  i18next.addResourceBundle(
    'en',
    'translation',
    { errorMessage: { 'Enter a valid version: major.minor.patch.': 'Use a version like 1.2.3.' } },
    true,
    true,
  );
});

describe('ErrorBanner', () => {
  it('uses the default heading and lists plain errors', () => {
    renderApp(<ErrorBanner errors={['Could not save.']} />);
    const alert = screen.getByRole('alert');
    expect(within(alert).getByRole('heading')).toHaveTextContent('Please correct the following errors:');
    expect(within(alert).getByRole('listitem')).toHaveTextContent('Could not save.');
  });

  it('translates field errors through errorMessage keys and falls back to the raw text', () => {
    renderApp(
      <ErrorBanner
        heading="Save failed"
        errors={{
          version: ['Enter a valid version: major.minor.patch.'],
          fileUrl: ['Something only the server knows.'],
          non_field_errors: ['Seat limit reached.'],
        }}
        fieldLabels={{ fileUrl: 'File URL' }}
      />,
    );
    expect(screen.getByRole('heading', { name: 'Save failed' })).toBeInTheDocument();
    expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'version: Use a version like 1.2.3.',
      'File URL: Something only the server knows.',
      'Seat limit reached.',
    ]);
  });

  it('renders nothing without errors', () => {
    renderApp(<ErrorBanner errors={{}} />);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('SuccessBanner', () => {
  it('shows a heading and its messages as a status', () => {
    renderApp(<SuccessBanner heading="Saved" messages={['Organisation details saved']} />);
    expect(screen.getByRole('status')).toHaveTextContent('SavedOrganisation details saved');
  });
});

describe('TextField', () => {
  it('ties help and translated error text to the input', () => {
    renderApp(
      <TextField label="Version" help="major.minor.patch" error="Enter a valid version: major.minor.patch." required />,
    );
    const input = screen.getByRole('textbox', { name: /Version/ });
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toBeRequired();
    expect(input).toHaveAccessibleDescription('major.minor.patch Use a version like 1.2.3.');
  });

  it('is not marked invalid without an error', () => {
    renderApp(<TextField label="City" />);
    expect(screen.getByRole('textbox', { name: 'City' })).not.toHaveAttribute('aria-invalid');
  });
});
