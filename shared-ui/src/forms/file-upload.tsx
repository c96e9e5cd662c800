import { useEffect, useRef, useState, type ChangeEvent, type ReactNode } from 'react';
import { useField } from 'react-final-form';
import styled from 'styled-components';
import { Button, useTranslation } from '@portal/shared-ui';
import { FieldShell } from '@portal/shared-ui/widgets';
import { fieldErrors } from './fields';
import { DEFAULT_ALLOWED_EXTENSIONS, fileProblem, MAX_UPLOAD_BYTES } from './file-rules';
import { uploadFile } from './upload-file';
import { required as requiredRule } from './validators';

/** docs/requirements.md#data (File) as the upload routes answer it; the form field's value. */
export interface UploadedFileValue {
  id: string;
  originalName: string;
  size: number;
  state: 'uploading' | 'uploaded' | 'saved';
}

export interface FileUploadProps {
  /** The form field holding the uploaded file (its id is what a form sends). */
  name: string;
  label: ReactNode;
  /** POST multipart (field `file`), e.g. '/api/v1/file/upload/user'. */
  uploadUrl: string;
  /** shared-auth's `useAuth().getAccessToken`: the token, refreshed when about to expire. */
  getAccessToken: () => Promise<string | null>;
  /** Lower-case extensions without the dot; docs/requirements.md#file-rules default jpg, png, csv, json. */
  allowedExtensions?: readonly string[];
  maxBytes?: number;
  required?: boolean;
  help?: ReactNode;
}

const Row = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: ${({ theme }) => theme.space.sm};
`;

const Progress = styled.progress`
  width: 200px;
  height: 12px;
  accent-color: ${({ theme }) => theme.colors.primary};
`;

const FileName = styled.span`
  font-weight: ${({ theme }) => theme.fontWeights.medium};
  overflow-wrap: anywhere;
`;

/** The size limit as the file rules write it ('10MB', '2GB'): binary units, one decimal at most. */
export function sizeLimitLabel(maxBytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = maxBytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${Math.round(value * 10) / 10}${units[unit]}`;
}

type Upload =
  | { kind: 'idle' }
  | { kind: 'uploading'; fileName: string; fraction: number }
  | { kind: 'failed'; messages: string[] };

const isFile = (value: unknown): value is UploadedFileValue =>
  typeof value === 'object' && value !== null && 'id' in value && 'originalName' in value;

function serverMessages(body: unknown): string[] {
  if (typeof body !== 'object' || body === null) return [];
  const { file, detail, non_field_errors: general } = body as Record<string, unknown>;
  return [file, detail, general].flatMap((v) => (v === undefined ? [] : [v].flat().map(String)));
}

/**
 * docs/requirements.md#file-states: choosing a file checks the file rules, then uploads it at once with progress
 * (uploading); the answer fills the field (uploaded); the form's save makes it saved (the screen
 * puts the saved file back into the field). A failed upload clears the field and says why.
 */
export function FileUpload({
  name,
  label,
  uploadUrl,
  getAccessToken,
  allowedExtensions = DEFAULT_ALLOWED_EXTENSIONS,
  maxBytes = MAX_UPLOAD_BYTES,
  required,
  help,
}: FileUploadProps) {
  const { t } = useTranslation();
  const { input, meta } = useField<UploadedFileValue | null>(name, {
    validate: required ? (value) => requiredRule(value) : undefined,
  });
  const [upload, setUpload] = useState<Upload>({ kind: 'idle' });
  const inputRef = useRef<HTMLInputElement>(null);
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);

  const value = isFile(input.value) ? input.value : null;
  const accept = allowedExtensions.map((e) => `.${e}`).join(',');

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const files = Array.from(event.target.files ?? []);
    // The same file chosen again after a failure must fire change again.
    event.target.value = '';
    if (files.length === 0) return;
    input.onFocus();
    const problem = fileProblem(files, allowedExtensions, maxBytes);
    if (problem) {
      input.onChange(null);
      // The limit is the field's (an installer's is not the 10 MB of the file rules), so the message names it.
      const params =
        'allowed' in problem
          ? { allowed: problem.allowed }
          : problem.code === 'tooLarge'
            ? { max: sizeLimitLabel(maxBytes) }
            : {};
      setUpload({ kind: 'failed', messages: [t(`forms.file.${problem.code}`, params)] });
      input.onBlur();
      return;
    }
    const [file] = files as [File];
    input.onChange(null);
    setUpload({ kind: 'uploading', fileName: file.name, fraction: 0 });
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    try {
      const accessToken = await getAccessToken();
      if (!accessToken) throw new Error('Token not found');
      const result = await uploadFile({
        url: uploadUrl,
        file,
        accessToken,
        signal: controller.signal,
        onProgress: (fraction) =>
          setUpload((u) => (u.kind === 'uploading' ? { ...u, fraction } : u)),
      });
      if (result.status === 201 || result.status === 200) {
        if (!isFile(result.body)) throw new Error('Unexpected upload answer');
        input.onChange(result.body);
        setUpload({ kind: 'idle' });
      } else {
        const messages = serverMessages(result.body);
        setUpload({
          kind: 'failed',
          messages: messages.length ? messages : [t('forms.file.uploadFailed')],
        });
      }
    } catch (error) {
      if (controller.signal.aborted) return;
      console.error('Upload failed', error);
      setUpload({ kind: 'failed', messages: [t('forms.file.uploadFailed')] });
    } finally {
      input.onBlur();
    }
  };

  const remove = () => {
    input.onChange(null);
    setUpload({ kind: 'idle' });
    inputRef.current?.focus();
  };

  const errors = [...(upload.kind === 'failed' ? upload.messages : []), ...fieldErrors(meta)];
  return (
    <FieldShell
      label={label}
      help={help ?? t('forms.file.help', { extensions: allowedExtensions.join(', ') })}
      error={errors}
      required={required}
    >
      {(ids) => (
        <>
          <input
            ref={inputRef}
            id={ids.id}
            type="file"
            name={name}
            accept={accept}
            aria-describedby={ids.describedBy}
            aria-invalid={ids.invalid || undefined}
            disabled={upload.kind === 'uploading'}
            onChange={(event) => void choose(event)}
          />
          <div aria-live="polite">
            {upload.kind === 'uploading' && (
              <Row>
                <FileName>{upload.fileName}</FileName>
                <Progress
                  max={100}
                  value={Math.round(upload.fraction * 100)}
                  aria-label={t('forms.file.progress', { name: upload.fileName })}
                />
                <span>
                  {t('forms.file.uploading', { percent: Math.round(upload.fraction * 100) })}
                </span>
              </Row>
            )}
            {upload.kind !== 'uploading' && value && (
              <Row>
                <FileName>{value.originalName}</FileName>
                <span>
                  {t(value.state === 'saved' ? 'forms.file.saved' : 'forms.file.uploaded')}
                </span>
                {value.state !== 'saved' && (
                  <Button
                    variant="secondary"
                    onClick={remove}
                    aria-label={t('forms.file.remove', { name: value.originalName })}
                  >
                    {t('common.delete')}
                  </Button>
                )}
              </Row>
            )}
          </div>
        </>
      )}
    </FieldShell>
  );
}
