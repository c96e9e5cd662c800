// Images live beside this remote's remoteEntry.js (public/images → dist/images), not on the host.
// Webpack's public path is 'auto': at run time it is the folder remoteEntry.js was loaded from,
// whichever origin that is, so it is the base every image path resolves against.
declare const __webpack_public_path__: string | undefined;

export const PLACEHOLDER_IMAGE = 'images/placeholder.svg';

function publicPath(): string {
  // Outside a webpack build (tests) the remote's files are served from the page's root.
  if (
    typeof __webpack_public_path__ === 'string' &&
    __webpack_public_path__ !== '' &&
    __webpack_public_path__ !== 'auto'
  ) {
    return __webpack_public_path__;
  }
  return '/';
}

/** Absolute URL of one of this remote's static files; absolute URLs pass through. */
export function assetUrl(path: string, base: string = publicPath()): string {
  const baseUrl = new URL(base, window.location.href);
  // '/images/x.svg' still means "under the remote's public path", which may be a sub-folder.
  return new URL(path.replace(/^\/+/, ''), baseUrl).toString();
}
