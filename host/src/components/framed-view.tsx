import { NotFoundView, UiProvider } from '@portal/shared-ui';

/** Shown instead of the portal when it is loaded inside a frame (clickjacking). */
export function FramedView() {
  return (
    <UiProvider productName={document.title || 'Portal'}>
      <NotFoundView />
    </UiProvider>
  );
}
