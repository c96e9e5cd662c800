// `@portal/shared-ui/forms`: react-final-form for every app, with the portal's fields.
//
// Apps import Form, Field, useForm… from here, never from react-final-form or final-form
// (eslint.config.js): one app then holds one copy, so a field always finds its form's context.
// This entry is not a federated shared module: each app that has forms bundles it with
// react-final-form and final-form (≈ 11 kB gzip) and dayjs (≈ 5 kB), which pages without forms never download, instead of putting them
// into shared-ui's main entry that every page loads first. A form never spans two apps, so a copy
// per app is safe. Its components reach shared-ui's singleton (theme, i18n, controls) through the
// package name '@portal/shared-ui' (docs/architecture.md, "Forms").
export { Form, Field, FormSpy, useField, useForm, useFormState } from 'react-final-form';
export type { FieldProps, FieldRenderProps, FormProps, FormRenderProps, FieldMetaState } from 'react-final-form';
export { FORM_ERROR } from 'final-form';
export type { FormApi, SubmissionErrors, FieldValidator } from 'final-form';

export {
  TextField,
  SelectField,
  CheckboxField,
  CheckboxGroupField,
  DateField,
  fieldErrors,
  type TextFieldProps,
  type SelectFieldProps,
  type CheckboxFieldProps,
  type CheckboxGroupFieldProps,
  type CheckboxGroupOption,
  type DateFieldProps,
} from './fields';
export { FileUpload, type FileUploadProps, type UploadedFileValue } from './file-upload';
export { fileProblem, extensionOf, MAX_UPLOAD_BYTES, MAX_FILE_NAME_LENGTH, DEFAULT_ALLOWED_EXTENSIONS, type FileProblem } from './file-rules';
export { uploadFile, type UploadOptions, type UploadResult } from './upload-file';
export {
  required,
  atLeastOne,
  minInteger,
  maxLength,
  validDate,
  composeValidators,
  parseDisplayDate,
  formatDisplayDate,
  REQUIRED,
  AT_LEAST_ONE,
  INVALID_DATE,
  DISPLAY_DATE_FORMAT,
  WIRE_DATE_FORMAT,
  type TypedDate,
  type Validator,
} from './validators';
