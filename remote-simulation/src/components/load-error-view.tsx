import { NotFoundView, SomethingWentWrongView } from '@portal/shared-ui';

/** 401/403/404 from the API: the user may not see it, so it "does not exist" for them. */
export function isNotFoundLike(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { status } = error as { status?: unknown };
  return status === 401 || status === 403 || status === 404;
}

/** What a screen shows when loading its data failed (docs/requirements.md#outside-the-layout). */
export function LoadErrorView({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  if (isNotFoundLike(error))
    return <NotFoundView onRefresh={onRetry ?? (() => window.location.reload())} />;
  return <SomethingWentWrongView />;
}
