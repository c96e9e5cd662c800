import { File as NodeFile } from 'node:buffer';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { axe } from 'jest-axe';
import { http, HttpResponse, delay } from 'msw';
import { setupServer } from 'msw/node';
import { renderApp, i18nReady } from '../../test/render';
import { FileUpload, Form, fileProblem, type UploadedFileValue } from '..';
import { sizeLimitLabel } from '../file-upload';

const server = setupServer();
beforeAll(async () => {
  server.listen({ onUnhandledRequest: 'error' });
  await i18nReady;
});
afterEach(() => {
  server.resetHandlers();
  document.cookie = 'XSRF-TOKEN=; expires=Thu, 01 Jan 1970 00:00:00 GMT';
});
afterAll(() => server.close());

const URL_ = '/api/v1/file/upload/user';
// jest-fixed-jsdom gives Node's FormData but jsdom's File, which Node's FormData refuses; a
// browser has one of each, so the test hands over Node's File.
const csv = (name = 'users.csv', body = 'firstName,lastName,email\n', type = 'text/csv') =>
  new NodeFile([body], name, { type }) as unknown as File;
const stored: UploadedFileValue = { id: '0b6f2c3e-8a41-4d5b-9c7e-2f1a3b4c5d6e', originalName: 'users.csv', size: 25, state: 'uploaded' };

function renderUpload({ initialValues = {}, getAccessToken = async () => 'token-1' as string | null } = {}) {
  const onSubmit = jest.fn();
  const view = renderApp(
    <Form
      onSubmit={onSubmit}
      initialValues={initialValues}
      render={({ handleSubmit }) => (
        <form onSubmit={handleSubmit} noValidate>
          <FileUpload name="file" label="Users file" uploadUrl={URL_} getAccessToken={getAccessToken} allowedExtensions={['csv']} required />
          <button type="submit">Add users</button>
        </form>
      )}
    />,
  );
  return { ...view, onSubmit, input: () => screen.getByLabelText(/Users file/) as HTMLInputElement };
}

describe('FileUpload', () => {
  it('uploads the chosen file with the bearer token and XSRF header, shows it uploaded and submits it', async () => {
    document.cookie = 'XSRF-TOKEN=xsrf-1';
    const seen: { auth: string | null; xsrf: string | null; name: string | undefined }[] = [];
    server.use(
      http.post(URL_, async ({ request }) => {
        const body = await request.formData();
        const file = body.get('file');
        seen.push({ auth: request.headers.get('Authorization'), xsrf: request.headers.get('X-XSRF-TOKEN'), name: typeof file === 'string' ? undefined : file?.name });
        await delay(50);
        return HttpResponse.json(stored, { status: 201 });
      }),
    );
    const { user, onSubmit, input } = renderUpload();

    await user.upload(input(), csv());
    expect(await screen.findByText(/Uploading/)).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Upload of users.csv' })).toBeInTheDocument();
    expect(await screen.findByText('Uploaded')).toBeInTheDocument();
    expect(screen.getByText('users.csv')).toBeInTheDocument();
    expect(seen).toEqual([{ auth: 'Bearer token-1', xsrf: 'xsrf-1', name: 'users.csv' }]);

    await user.click(screen.getByRole('button', { name: 'Add users' }));
    expect(onSubmit.mock.calls[0][0]).toEqual({ file: stored });
  });

  it('refuses a file breaking the rules of docs/requirements.md#file-rules before any upload, with its message', async () => {
    const { input } = renderUpload();
    // The picker's filter is a hint: "All files" or a drop still hands over anything.
    const user = userEvent.setup({ applyAccept: false });
    await user.upload(input(), csv('users.txt', 'x', 'text/plain'));
    expect(input()).toHaveAccessibleDescription(expect.stringContaining('File extension is not valid. Allowed extensions are: csv.'));
    await user.upload(input(), csv('con.csv'));
    expect(input()).toHaveAccessibleDescription(expect.stringContaining('File name is invalid.'));
    await user.upload(input(), csv('users.csv', 'x'.repeat(10 * 1024 * 1024 + 1)));
    expect(input()).toHaveAccessibleDescription(expect.stringContaining('File is too large. Max file size is 10MB'));
    expect(input()).toHaveAttribute('aria-invalid', 'true');
  });

  it('clears the field when the upload fails, showing the server message', async () => {
    server.use(http.post(URL_, () => HttpResponse.json({ file: ['Invalid file type. Allowed types are: text/csv.'] }, { status: 400 })));
    const { user, input, onSubmit } = renderUpload({ initialValues: { file: stored } });
    expect(screen.getByText('Uploaded')).toBeInTheDocument();

    await user.upload(input(), csv('other.csv'));

    expect(await screen.findByText('Invalid file type. Allowed types are: text/csv.')).toBeInTheDocument();
    expect(screen.queryByText('Uploaded')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add users' }));
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('says the upload failed when the network fails or no token is there', async () => {
    server.use(http.post(URL_, () => HttpResponse.error()));
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user, input } = renderUpload();
    await user.upload(input(), csv());
    expect(await screen.findByText('The file could not be uploaded. Please try again.')).toBeInTheDocument();
    errors.mockRestore();
  });

  it('shows a saved file without a remove button, and removes an uploaded one from the keyboard', async () => {
    const { user, rerender } = renderUpload({ initialValues: { file: { ...stored, state: 'saved' } } });
    expect(screen.getByText('Saved')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Remove users.csv' })).not.toBeInTheDocument();
    rerender(<></>);

    renderUpload({ initialValues: { file: stored } });
    const remove = screen.getByRole('button', { name: 'Remove users.csv' });
    remove.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByText('users.csv')).not.toBeInTheDocument());
  });
});

describe('FileUpload and axe', () => {
  it('passes axe empty, uploading, uploaded, saved and with an error', async () => {
    server.use(
      http.post(URL_, async () => {
        await delay(100);
        return HttpResponse.json(stored, { status: 201 });
      }),
    );
    const { container, user, input, unmount } = renderUpload();
    expect(await axe(container)).toHaveNoViolations();

    await user.upload(input(), csv());
    expect(await screen.findByRole('progressbar', { name: 'Upload of users.csv' })).toBeInTheDocument();
    expect(await axe(container)).toHaveNoViolations();
    expect(await screen.findByText('Uploaded')).toBeInTheDocument();
    expect(await axe(container)).toHaveNoViolations();

    const refusing = userEvent.setup({ applyAccept: false });
    await refusing.upload(input(), csv('users.txt', 'x', 'text/plain'));
    expect(input()).toHaveAttribute('aria-invalid', 'true');
    expect(await axe(container)).toHaveNoViolations();
    unmount();

    const saved = renderUpload({ initialValues: { file: { ...stored, state: 'saved' } } });
    expect(screen.getByText('Saved')).toBeInTheDocument();
    expect(await axe(saved.container)).toHaveNoViolations();
  });
});

describe('sizeLimitLabel', () => {
  it("names a field's own limit as the file rules write 10MB", () => {
    expect(sizeLimitLabel(10 * 1024 * 1024)).toBe('10MB');
    expect(sizeLimitLabel(2 * 1024 ** 3)).toBe('2GB');
    expect(sizeLimitLabel(1536 * 1024)).toBe('1.5MB');
    expect(sizeLimitLabel(512)).toBe('512B');
  });
});

describe('fileProblem', () => {
  const file = (name: string, type = 'text/csv', size = 10) => ({ name, type, size });
  it.each([
    [[file('a.csv'), file('b.csv')], 'oneFileOnly'],
    [[file('a<b.csv')], 'nameInvalid'],
    [[file('tab\t.csv')], 'nameInvalid'],
    [[file('users.csv.')], 'nameInvalid'],
    [[file(`${'a'.repeat(252)}.csv`)], 'nameTooLong'],
    [[file('users.exe')], 'extensionInvalid'],
    [[file('users.csv', 'text/html')], 'typeInvalid'],
    [[file('users.csv', 'text/csv', 10 * 1024 * 1024 + 1)], 'tooLarge'],
  ])('refuses %j as %s', (files, code) => {
    expect(fileProblem(files, ['csv'])?.code).toBe(code);
  });

  it('accepts a CSV that Excel on Windows declares, or one without a declared type', () => {
    expect(fileProblem([file('users.csv', 'application/vnd.ms-excel')], ['csv'])).toBeNull();
    expect(fileProblem([file('users.csv', '')], ['csv'])).toBeNull();
  });
});
