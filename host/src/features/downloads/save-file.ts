/**
 * Hands a URL to the browser's download manager under `fileName`. An <a download> rather than
 * location.assign: the page stays put even if the server forgot Content-Disposition, and the
 * `download` name applies because signed URLs are same-origin.
 */
export function saveFile(url: string, fileName: string): void {
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  anchor.hidden = true;
  // Firefox only follows a click on an anchor that is in the document.
  document.body.append(anchor);
  try {
    anchor.click();
  } finally {
    anchor.remove();
  }
}
