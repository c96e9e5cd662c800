/**
 * The `comment` of an AGS score (issue #23 point 3): the educator's comment on the report, then
 * each commented image as "Projection: comment", in capture order. Without educator feedback there
 * is no comment: the simulator's summary arrives with the session token, which the learner's browser
 * holds, so it is the learner's text and must not read as the course's feedback. Cut to SCORE_COMMENT_MAX characters (with an
 * ellipsis): platforms show it in their gradebook's feedback column, and a whole report of long
 * comments is more than any of them displays well.
 */
export const SCORE_COMMENT_MAX = 4000;

export interface ScoreCommentSources {
  report: string | null;
  images: ReadonlyArray<{ projection: string; comment: string }>;
}

export function scoreComment({ report, images }: ScoreCommentSources): string | null {
  const parts = [
    ...(report ? [report.trim()] : []),
    ...images.map((i) => `${i.projection}: ${i.comment.trim()}`),
  ];
  const text = parts.join('\n\n');
  if (text === '') return null;
  // Code points, so a cut never splits a character in two.
  const chars = [...text];
  return chars.length <= SCORE_COMMENT_MAX
    ? text
    : `${chars.slice(0, SCORE_COMMENT_MAX - 1).join('')}…`;
}
