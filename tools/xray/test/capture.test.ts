import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Value } from '@sinclair/typebox/value';
import { EvidenceSubmission } from '@portal/contract';
import { captureImage, captureLessonPart, exposureScore, planFor, positioningOf, reportSummary } from '../src/capture';
import { BODY_AREAS } from '../src/body-areas';
import { LESSONS } from '../src/lesson-doses';

const session = { uuid: '7d3c1d2e-5a7b-4c53-9f0e-1a2b3c4d5e6f', configuration: 'radiography.lower-limb.knee', categoryName: 'Knee' };

test('an image capture is a valid evidence submission with its PNG', () => {
  const capture = captureImage(session, BODY_AREAS.knee, { kV: 70, mAs: 8, sidCm: 110 }, 0);
  assert.ok(Value.Check(EvidenceSubmission, capture.submission), JSON.stringify([...Value.Errors(EvidenceSubmission, capture.submission)]));
  assert.equal(capture.submission.evidenceData.meta.type, 'xray_image');
  assert.deepEqual(capture.submission.evidenceData.tube, { kV: 70, mAs: 8, sidCm: 110 });
  assert.ok(capture.image && capture.image.length > 0);
  assert.match(capture.submission.practiceActivity, /^Knee AP \((left|right)\)$/);
  assert.equal(capture.summary.exposure, 'over');
});

test('lesson parts are valid evidence and alternate parts 0 and 1', () => {
  const lesson = LESSONS['distance-and-time']!;
  const lessonSession = { ...session, configuration: 'radiation-safety.lesson.distance-and-time' };
  const parts = [0, 1, 2, 3].map((n) => captureLessonPart(lessonSession, lesson, n, 2));
  for (const part of parts) {
    assert.ok(Value.Check(EvidenceSubmission, part.submission), JSON.stringify([...Value.Errors(EvidenceSubmission, part.submission)]));
    assert.equal(part.image, null);
  }
  assert.deepEqual(parts.map((p) => [p.submission.evidenceData.lesson?.index, p.submission.evidenceData.lesson?.partIndex, p.submission.evidenceData.lesson?.count]), [[0, 0, 2], [0, 1, 2], [1, 0, 2], [1, 1, 2]]);
  assert.equal(parts[0]?.submission.evidenceData.meta.type, 'rs_lesson_part');
});

test('the plan and report summary follow the launched leaf', () => {
  const plan = planFor(session);
  assert.equal(plan.kind, 'xray');
  assert.equal(reportSummary(plan, 3), '3 images of the knee');
  assert.equal(reportSummary(plan, 1), '1 image of the knee');
  const lesson = planFor({ configuration: 'radiation-safety.lesson.shielding', categoryName: 'Shielding' });
  assert.equal(lesson.kind, 'lesson');
  assert.match(reportSummary(lesson, 2), /Shielding lesson: 2 lesson parts recorded \(1 complete lesson\)/);
});

test('the score is the share of images exposed on target', () => {
  const good = captureImage(session, BODY_AREAS.knee, BODY_AREAS.knee.defaults, 0).summary;
  const over = captureImage(session, BODY_AREAS.knee, { ...BODY_AREAS.knee.defaults, mAs: 40 }, 1).summary;
  assert.equal(exposureScore([good, good, over, good]), 75);
  assert.equal(exposureScore([]), null);
});

test('an image carries what the portal marks: centring, collimation and the deviation index', () => {
  const capture = captureImage(session, BODY_AREAS.knee, { kV: 70, mAs: 8, sidCm: 110 }, 0);
  const quality = capture.submission.evidenceData.quality;
  assert.deepEqual(quality, { ...positioningOf(`${session.uuid}:0`), deviationIndex: capture.summary.deviationIndex });
  const chosen = captureImage(session, BODY_AREAS.knee, BODY_AREAS.knee.defaults, 1, { positioning: { centringErrorMm: 25, collimationRatio: 2 } });
  assert.equal(chosen.submission.evidenceData.quality?.centringErrorMm, 25);
  assert.equal(chosen.submission.evidenceData.quality?.collimationRatio, 2);
});

test('positioning has the spread of practice: mostly good, some borderline, a few poor', () => {
  const all = Array.from({ length: 600 }, (_, k) => positioningOf(`spread:${k}`));
  const share = (f: (p: (typeof all)[number]) => boolean) => all.filter(f).length / all.length;
  assert.deepEqual(positioningOf('same'), positioningOf('same'), 'deterministic');
  assert.ok(share((p) => p.centringErrorMm <= 10) > 0.7);
  assert.ok(share((p) => p.centringErrorMm > 10 && p.centringErrorMm <= 20) > 0.1);
  assert.ok(share((p) => p.centringErrorMm > 20) > 0);
  assert.ok(share((p) => p.collimationRatio > 1.3) > 0.1);
  assert.ok(share((p) => p.collimationRatio < 1) > 0);
});
