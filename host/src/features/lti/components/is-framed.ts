/** Whether this page runs inside a frame (the learning platform's iframe). */
export function isFramed(): boolean {
  try {
    return window.self !== window.top;
  } catch {
    // Reading `top` across origins may throw in old browsers: that is a frame too.
    return true;
  }
}
