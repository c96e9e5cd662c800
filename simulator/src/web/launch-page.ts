import { LESSON_PARTS_PER_LESSON, NON_FIELD_ERRORS, type FieldErrors, type SimulatorSession, type TubeSettings } from '@portal/contract';
import type { SessionPlan } from '@portal/xray';
import type { StoredCapture } from './capture-store';
import { document, html, type SafeHtml } from './html';

export interface TubeField {
  name: keyof TubeSettings;
  label: string;
  step: number;
}

/** Labels the learner sees, and that e2e tests find the inputs by. */
export const TUBE_FIELDS: readonly TubeField[] = [
  { name: 'kV', label: 'Tube voltage (kV)', step: 1 },
  { name: 'mAs', label: 'Tube current-time product (mAs)', step: 0.1 },
  { name: 'sidCm', label: 'Source-to-image distance (cm)', step: 1 },
];

export interface SessionPageModel {
  session: SimulatorSession;
  plan: SessionPlan;
  token: string;
  /** Values shown in the inputs (as typed, when they were refused). */
  tube: Record<keyof TubeSettings, string>;
  limits: Record<keyof TubeSettings, { min: number; max: number }>;
  captures: readonly StoredCapture[];
  notice: string | null;
  errors: FieldErrors;
}

export function pageTitle(session: SimulatorSession): string {
  return `${session.product.name} simulator`;
}

function bodyAreaName(session: SimulatorSession, plan: SessionPlan): string {
  if (session.categoryName) return session.categoryName;
  if (plan.kind === 'lesson') return plan.lesson.title;
  return plan.area.label.charAt(0).toUpperCase() + plan.area.label.slice(1);
}

function formatNumber(value: number, digits = 2): string {
  return new Intl.NumberFormat('en', { maximumFractionDigits: digits }).format(value);
}

const tokenField = (token: string) => html`<input type="hidden" name="token" value="${token}">`;

function problems(errors: FieldErrors): SafeHtml | null {
  const general = Object.entries(errors).filter(([field]) => !TUBE_FIELDS.some((f) => f.name === field));
  if (general.length === 0) return null;
  return html`<div class="problem" role="alert"><strong>That did not work.</strong><ul>${general.map(
    ([field, messages]) => html`<li>${field === NON_FIELD_ERRORS ? '' : `${field}: `}${messages.join(' ')}</li>`,
  )}</ul></div>`;
}

function exposureText(capture: StoredCapture): string {
  const { exposure, deviationIndex } = capture.summary;
  if (exposure === undefined || deviationIndex === undefined) return '';
  const rating = exposure === 'good' ? 'exposure on target' : exposure === 'over' ? 'overexposed' : 'underexposed';
  return ` · ${rating} (DI ${formatNumber(deviationIndex, 1)})`;
}

function xrayControls(model: SessionPageModel): SafeHtml {
  const { errors } = model;
  return html`<section aria-labelledby="exposure-heading">
<h2 id="exposure-heading">Exposure settings</h2>
<form class="settings" method="post" action="/launch/capture" novalidate>
${tokenField(model.token)}
${TUBE_FIELDS.map((field) => {
  const fieldErrors = errors[field.name] ?? [];
  const limits = model.limits[field.name];
  return html`<div class="field">
<label for="${field.name}">${field.label}</label>
<input id="${field.name}" name="${field.name}" type="number" inputmode="decimal" min="${limits.min}" max="${limits.max}" step="${field.step}" value="${model.tube[field.name]}" required${
    fieldErrors.length > 0 ? html` aria-invalid="true" aria-describedby="${field.name}-error"` : ''
  }>
${fieldErrors.length > 0 ? html`<p class="error" id="${field.name}-error">${fieldErrors.join(' ')}</p>` : ''}
</div>`;
})}
<div><button type="submit">Take image</button></div>
</form>
</section>
<section aria-labelledby="captures-heading">
<h2 id="captures-heading">Captured images</h2>
<p class="muted">${countText(model.session.evidenceCount, 'image')} in this session.</p>
${
  model.captures.length === 0
    ? ''
    : html`<ol class="captures">${[...model.captures].reverse().map((capture) => {
        const { tube, practiceActivity, dapMGyCm2 } = capture.summary;
        return html`<li><figure>
${capture.image ? html`<img src="/launch/images/${capture.id}.png" width="512" height="512" alt="X-ray: ${practiceActivity}">` : ''}
<figcaption><strong>${practiceActivity}</strong><br>${formatNumber(tube.kV)} kV · ${formatNumber(tube.mAs)} mAs · ${formatNumber(tube.sidCm)} cm · DAP ${formatNumber(dapMGyCm2)} mGy·cm²${exposureText(capture)}</figcaption>
</figure></li>`;
      })}</ol>`
}
</section>`;
}

function lessonControls(model: SessionPageModel, lesson: Extract<SessionPlan, { kind: 'lesson' }>['lesson']): SafeHtml {
  const recorded = model.session.evidenceCount;
  const done = recorded >= LESSON_PARTS_PER_LESSON;
  const next = lesson.parts[recorded % LESSON_PARTS_PER_LESSON === 0 ? 0 : 1];
  const parts = model.captures.filter((c) => c.summary.lessonPart);
  return html`<section aria-labelledby="lesson-heading">
<h2 id="lesson-heading">Lesson: ${lesson.title}</h2>
${
  done
    ? html`<p>Both parts of the lesson are recorded. Finish the session to see your report.</p>`
    : html`<p>Next: part ${(recorded % LESSON_PARTS_PER_LESSON) + 1} of ${LESSON_PARTS_PER_LESSON}, ${next.title.toLowerCase()} (${formatNumber(next.distanceM)} m from the patient, ${next.doseTimeS} s of screening).</p>
<form method="post" action="/launch/lesson-part">${tokenField(model.token)}<button type="submit">Record lesson part</button></form>`
}
<p class="muted">${countText(recorded, 'lesson part')} recorded in this session.</p>
${
  parts.length === 0
    ? ''
    : html`<table>
<caption class="muted">Operator doses, µSv</caption>
<thead><tr><th scope="col">Part</th><th scope="col">Distance</th><th scope="col">Time</th><th scope="col">Eye</th><th scope="col">Chest</th><th scope="col">Hip</th></tr></thead>
<tbody>${parts.map((capture) => {
        const part = capture.summary.lessonPart;
        if (!part) return '';
        return html`<tr><th scope="row">${part.partIndex + 1}. ${part.title}</th><td>${formatNumber(part.distanceM)} m</td><td>${part.doseTime} s</td><td>${formatNumber(part.doses.eye)}</td><td>${formatNumber(part.doses.chest)}</td><td>${formatNumber(part.doses.hip)}</td></tr>`;
      })}</tbody>
</table>`
}
</section>`;
}

function countText(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

export function sessionPage(model: SessionPageModel): string {
  const { session, plan } = model;
  return document(
    pageTitle(session),
    html`<h1>${pageTitle(session)}</h1>
<dl class="facts">
<div><dt>Learner</dt><dd>${session.learner.firstName} ${session.learner.lastName}</dd></div>
<div><dt>Body area</dt><dd>${bodyAreaName(session, plan)}</dd></div>
<div><dt>Mode</dt><dd>${session.mode}</dd></div>
</dl>
${model.notice ? html`<p class="notice" role="status">${model.notice}</p>` : ''}
${problems(model.errors)}
${plan.kind === 'lesson' ? lessonControls(model, plan.lesson) : xrayControls(model)}
<section aria-labelledby="finish-heading">
<h2 id="finish-heading">Finish</h2>
<p>When you are done, finish the session: the portal then shows your report.</p>
<form method="post" action="/launch/finish">${tokenField(model.token)}<button type="submit" class="secondary">Finish session</button></form>
</section>`,
  );
}

export function messagePage(title: string, message: string, detail?: string | null): string {
  return document(
    title,
    html`<h1>${title}</h1>
<p${title === 'Simulator' ? '' : html` role="alert"`}>${message}</p>
${detail ? html`<p class="muted">${detail}</p>` : ''}`,
  );
}

export function completePage(session: SimulatorSession | null, summary: string): string {
  const title = session ? pageTitle(session) : 'Simulator';
  return document(
    title,
    html`<h1>${title}</h1>
<p class="notice" role="status">Session complete. You can close this window.</p>
<p class="muted">${summary}</p>`,
  );
}
