require('@testing-library/jest-dom');

/**
 * jsdom has HTMLDialogElement but none of its behaviour (jsdom/jsdom#3294). The part our Modal
 * relies on, as the HTML standard defines it: `open` reflects the attribute, showModal() opens,
 * close() closes and fires `close`. Inertness and the top layer stay a browser matter (e2e).
 */
if (typeof HTMLDialogElement !== 'undefined' && !HTMLDialogElement.prototype.showModal) {
  Object.defineProperty(HTMLDialogElement.prototype, 'open', {
    configurable: true,
    get() {
      return this.hasAttribute('open');
    },
    set(value) {
      this.toggleAttribute('open', Boolean(value));
    },
  });
  HTMLDialogElement.prototype.show = function show() {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.showModal = function showModal() {
    if (!this.isConnected) throw new DOMException('The dialog is not connected', 'InvalidStateError');
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close = function close(returnValue) {
    if (!this.hasAttribute('open')) return;
    this.removeAttribute('open');
    if (returnValue !== undefined) this.returnValue = returnValue;
    this.dispatchEvent(new Event('close'));
  };
}

// Beside the API's suite on two busy cores a screen can take over a second to show what a
// findBy*/waitFor waits for (the default); five seconds still fails a screen that never shows it.
require('@testing-library/dom').configure({ asyncUtilTimeout: 5000 });
