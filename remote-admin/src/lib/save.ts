import type { FieldErrors } from '@portal/contract';
import type { ApiResult } from '@portal/shared-auth';
import type { SubmissionErrors } from '@portal/shared-ui/forms';

/** What the last save did; drives the banners above a form (docs/requirements.md#reusable-pieces, #errors-and-messages). */
export type SaveOutcome =
  | { kind: 'idle' }
  | { kind: 'saved'; message: string }
  | { kind: 'invalid'; errors: FieldErrors }
  | { kind: 'failed' };

/**
 * Runs a save and turns its answer into final-form's submission errors: a 400's field messages go
 * under their fields (docs/requirements.md#validation) and, with the rest, into the error banner; anything else is a
 * failure banner. Resolves, never throws, so a form never sticks in "submitting".
 */
export async function submitSave<T>(
  save: () => Promise<ApiResult<T>>,
  { onSaved, setOutcome }: { onSaved: (data: T) => void; setOutcome: (outcome: SaveOutcome) => void },
): Promise<SubmissionErrors | undefined> {
  setOutcome({ kind: 'idle' });
  try {
    const result = await save();
    if (result.isSuccess) {
      onSaved(result.data);
      return undefined;
    }
    if (result.isError && result.error && typeof result.error === 'object') {
      setOutcome({ kind: 'invalid', errors: result.error });
      return result.error;
    }
  } catch (error) {
    console.error('Saving failed', error);
  }
  setOutcome({ kind: 'failed' });
  return undefined;
}
