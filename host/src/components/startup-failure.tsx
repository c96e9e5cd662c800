import { ErrorFallbackView, UiProvider } from '@portal/shared-ui';

/** /config.json could not be read: nothing else can work, say so plainly. */
export function StartupFailure() {
  return (
    <UiProvider productName={document.title || 'Portal'}>
      <ErrorFallbackView />
    </UiProvider>
  );
}
