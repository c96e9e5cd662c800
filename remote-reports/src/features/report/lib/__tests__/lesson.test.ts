import { evidence, lessonPart } from '../../../../testing/report-fixtures';
import { groupLessons, isLessonEvidence, percentDifference, scaleDose } from '../lesson';

const doses = (eye: number, chest: number, hip: number) => ({ eye, chest, hip });

describe('scaleDose', () => {
  it('extrapolates a dose measured over doseTime seconds to 900 s of fluoroscopy', () => {
    expect(scaleDose(1, 30)).toBe(30);
    expect(scaleDose(2.5, 60)).toBe(37.5);
    expect(scaleDose(9, 900)).toBe(9);
  });
});

describe('percentDifference', () => {
  it('is the whole-percent change from part 1 to part 2', () => {
    expect(percentDifference(100, 150)).toBe(50);
    expect(percentDifference(30, 15)).toBe(-50);
    expect(percentDifference(100, 112.6)).toBe(13);
  });

  it('shows changes under 0.5 % either way as 0', () => {
    expect(percentDifference(100, 100.49)).toBe(0);
    expect(percentDifference(100, 99.6)).toBe(0);
    expect(percentDifference(100, 100.5)).toBe(1);
  });

  it('cannot express a change from nothing', () => {
    expect(percentDifference(0, 0)).toBe(0);
    expect(percentDifference(0, 3)).toBeNull();
  });
});

describe('groupLessons', () => {
  it('groups parts by lesson, in lesson and part order, with scaled doses', () => {
    const items = [
      evidence({ id: 1 }),
      lessonPart(2, { index: 1, partIndex: 1, doseTime: 60, doses: doses(2, 2, 2) }),
      lessonPart(3, { index: 0, partIndex: 0, doseTime: 30, doses: doses(1, 2, 0.5) }),
      lessonPart(4, { index: 0, partIndex: 1, doseTime: 60, doses: doses(2.5, 4.006, 0.5) }),
    ];

    const lessons = groupLessons(items);

    expect(lessons.map((l) => l.index)).toEqual([0, 1]);
    const [first, second] = lessons;
    expect(first?.parts.map((p) => p?.evidence.id)).toEqual([3, 4]);
    expect(first?.parts.map((p) => p?.evidenceIndex)).toEqual([2, 3]);
    expect(first?.parts[0]?.doses).toEqual(doses(30, 60, 15));
    expect(first?.parts[1]?.doses.eye).toBeCloseTo(37.5);
    expect(first?.difference).toEqual({ eye: 25, chest: 0, hip: -50 });
    // A lesson whose first part never arrived has nothing to compare.
    expect(second?.parts[0]).toBeNull();
    expect(second?.difference).toEqual({ eye: null, chest: null, hip: null });
  });

  it('treats only lesson parts with lesson data as lesson evidence', () => {
    const withoutData = lessonPart(5, { index: 0, partIndex: 0, doseTime: 1, doses: doses(1, 1, 1) });
    delete withoutData.evidenceData.lesson;
    expect(isLessonEvidence(withoutData)).toBe(false);
    expect(isLessonEvidence(evidence())).toBe(false);
    expect(groupLessons([withoutData])).toEqual([]);
  });
});
