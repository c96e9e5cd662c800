import type { Evidence } from '@portal/contract';
import { EVIDENCE_PAGE_SIZE, MAX_IMAGE_IDS_PER_CALL } from '../../../config/constants';
import { groupLessons, isLessonEvidence, type Lesson } from './lesson';

/** What a page of a report shows: whole lessons, then plain images with their place in the report. */
export interface EvidencePage {
  lessons: Lesson[];
  images: { evidence: Evidence; index: number }[];
  /** Evidence on this page that has an image: one signed-URL call asks for all of them. */
  imageIds: number[];
}

const emptyPage = (): EvidencePage => ({ lessons: [], images: [], imageIds: [] });

const imageIdsOfLesson = (lesson: Lesson) =>
  lesson.parts.flatMap((part) => (part?.evidence.hasImage ? [part.evidence.id] : []));

/**
 * A report's evidence in pages of `pageSize` items, a lesson counting as one item and never split,
 * lessons first as the report shows them. A page also closes before its images would pass what one
 * signed-URL call may ask for, so every image of a session (up to 200) gets its URL.
 */
export function paginateEvidence(evidence: readonly Evidence[], pageSize = EVIDENCE_PAGE_SIZE): EvidencePage[] {
  const items: { lesson?: Lesson; image?: { evidence: Evidence; index: number }; imageIds: number[] }[] = [
    ...groupLessons(evidence).map((lesson) => ({ lesson, imageIds: imageIdsOfLesson(lesson) })),
    ...evidence.flatMap((item, index) =>
      isLessonEvidence(item) ? [] : [{ image: { evidence: item, index }, imageIds: item.hasImage ? [item.id] : [] }],
    ),
  ];
  const pages: EvidencePage[] = [];
  let page = emptyPage();
  let count = 0;
  for (const item of items) {
    if (count === pageSize || (count > 0 && page.imageIds.length + item.imageIds.length > MAX_IMAGE_IDS_PER_CALL)) {
      pages.push(page);
      page = emptyPage();
      count = 0;
    }
    if (item.lesson) page.lessons.push(item.lesson);
    if (item.image) page.images.push(item.image);
    page.imageIds.push(...item.imageIds);
    count += 1;
  }
  if (count > 0) pages.push(page);
  return pages;
}

/** The page (from 1) that shows evidence `evidenceId`, if any page does. */
export function pageOfEvidence(pages: readonly EvidencePage[], evidenceId: number): number | undefined {
  const found = pages.findIndex(
    (page) =>
      page.images.some(({ evidence }) => evidence.id === evidenceId) ||
      page.lessons.some((lesson) => lesson.parts.some((part) => part?.evidence.id === evidenceId)),
  );
  return found === -1 ? undefined : found + 1;
}
