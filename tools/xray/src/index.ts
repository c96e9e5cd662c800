/**
 * The simulator's generator: synthetic radiographs with their doses and exposure ratings, and
 * radiation-safety lesson parts, as evidence submissions of the simulator contract. Used by the
 * simulator (web page, CLI, headless sessions) and by the API's demo activity seed.
 */
export {
  captureImage,
  captureLessonPart,
  captureNext,
  defaultTube,
  exposureScore,
  planFor,
  positioningOf,
  reportSummary,
  type Capture,
  type CaptureOptions,
  type CaptureSummary,
  type Positioning,
  type SessionPlan,
} from './capture';
export { BODY_AREAS, bodyAreaFor, type BodyArea, type BodyAreaKey } from './body-areas';
export { LESSONS, lessonFor, type LessonPlan } from './lesson-doses';
export { deviationIndex, doseAreaProduct, rateExposure, type ExposureRating } from './physics';
export { renderRadiograph, type Radiograph, type RenderOptions, type Side } from './render';
export { createRandom, hashSeed, type Random } from './random';
