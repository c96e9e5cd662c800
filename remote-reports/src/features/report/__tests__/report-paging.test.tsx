import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { http, HttpResponse } from 'msw';
import type { Evidence, ImageUrl } from '@portal/contract';
import { setupTestServer } from '../../../testing/msw-server';
import { renderRemote } from '../../../testing/render-remote';
import { evidence, imageUrl, lessonPart, report, REPORT_UUID, serveReport } from '../../../testing/report-fixtures';
import { paginateEvidence, pageOfEvidence } from '../lib/evidence-pages';

const server = setupTestServer();
const LEARNER = ['global.view_own_reports'];
const REPORT_PATH = `/report/${REPORT_UUID}`;

/** A full session: 200 images, ids 1001–1200, "Image n: Shot n". */
const IMAGES = Array.from({ length: 200 }, (_, i) => evidence({ id: 1001 + i, practiceActivity: `Shot ${i + 1}` }));

/** Records every signed-URL call's ids, answering as the API does: 400 above 100 ids. */
function recordImageCalls() {
  const calls: number[][] = [];
  server.use(
    http.get<{ reportId: string }, never, ImageUrl[]>('/api/v1/report/:reportId/image', ({ request }) => {
      const ids = new URL(request.url).searchParams.getAll('id').map(Number);
      calls.push(ids);
      if (ids.length > 100) return HttpResponse.json({ id: ['Must have at most 100 items.'] } as never, { status: 400 });
      return HttpResponse.json(ids.map((id) => ({ id, url: imageUrl(id) })));
    }),
  );
  return calls;
}

/** The evidence shown: each image is an article named "Image n: …" inside the report's article. */
const shownImages = () => screen.getAllByRole('article', { name: /^Image \d+:/ });
// The report renders 10 articles at a time; a busy machine needs more than the default second.
const WAIT = { timeout: 5000 };

describe('a report with many images', () => {
  afterEach(() => i18next.changeLanguage('en'));

  it('shows 10 a page, and every image of a 200-image session has its picture, the last page too', async () => {
    const user = userEvent.setup();
    serveReport(server, report({ evidence: IMAGES }));
    const calls = recordImageCalls();
    renderRemote({ server, path: REPORT_PATH, permissions: LEARNER });

    const first = await screen.findByRole('article', { name: 'Image 1: Shot 1' });
    expect(await within(first).findByRole('img', { name: 'X-ray image 1: Shot 1' })).toHaveAttribute('src', imageUrl(1001));
    expect(shownImages()).toHaveLength(10);
    expect(screen.queryByRole('article', { name: 'Image 11: Shot 11' })).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Evidence page 1 of 20');

    // To the last page from the keyboard.
    screen.getByRole('button', { name: 'Page 20' }).focus();
    await user.keyboard('{Enter}');
    const last = await screen.findByRole('article', { name: 'Image 200: Shot 200' }, WAIT);
    expect(await within(last).findByRole('img', { name: 'X-ray image 200: Shot 200' })).toHaveAttribute('src', imageUrl(1200));
    const shot191 = screen.getByRole('article', { name: 'Image 191: Shot 191' });
    expect(await within(shot191).findByRole('img')).toHaveAttribute('src', imageUrl(1191));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Evidence page 20 of 20');

    // One call a page, for that page's images only.
    expect(calls[0]).toEqual(IMAGES.slice(0, 10).map((e) => e.id));
    expect(calls.at(-1)).toEqual(IMAGES.slice(190).map((e) => e.id));
    expect(Math.max(...calls.map((ids) => ids.length))).toBeLessThanOrEqual(100);
  });

  it('closes an open analysis form when the page changes (paging resets editing)', async () => {
    const user = userEvent.setup();
    serveReport(server, report({ evidence: IMAGES.slice(0, 15) }));
    renderRemote({ server, path: REPORT_PATH, permissions: LEARNER });

    const image = await screen.findByRole('article', { name: 'Image 1: Shot 1' });
    await user.click(within(image).getByRole('button', { name: 'Analyse' }));
    expect(within(image).getByRole('button', { name: 'Save' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByRole('article', { name: 'Image 11: Shot 11' });
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    const again = await screen.findByRole('article', { name: 'Image 1: Shot 1' });
    expect(within(again).getByRole('button', { name: 'Analyse' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
  });

  it('opens on the page of the image just analysed when the analysis route returns', async () => {
    const user = userEvent.setup();
    serveReport(server, report({ evidence: IMAGES.slice(0, 25) }));
    renderRemote({ server, path: REPORT_PATH, permissions: LEARNER });

    await screen.findByRole('article', { name: 'Image 1: Shot 1' });
    await user.click(screen.getByRole('button', { name: 'Page 3' }));
    const image = await screen.findByRole('article', { name: 'Image 23: Shot 23' });
    await user.click(within(image).getByRole('button', { name: 'Analyse' }));
    await user.selectOptions(within(image).getByRole('combobox', { name: /Analysis status/ }), 'Accepted');
    await user.type(within(image).getByRole('textbox', { name: /Reason/ }), 'Well centred.');
    await user.click(within(image).getByRole('button', { name: 'Save' }));

    // Query the article afresh each time: the one on screen at the click is the report before the
    // save, which the action route replaces (holding on to it raced the navigation).
    await waitFor(() => {
      const saved = screen.getByRole('article', { name: 'Image 23: Shot 23' });
      expect(within(saved).getByText('Well centred.')).toBeInTheDocument();
      expect(within(saved).getByRole('button', { name: 'Edit' })).toBeInTheDocument();
    }, WAIT);
    expect(screen.getByRole('status')).toHaveTextContent('Evidence page 3 of 3');
  });

  it('says which page it shows in German', async () => {
    await i18next.changeLanguage('de');
    serveReport(server, report({ evidence: IMAGES.slice(0, 15) }));
    renderRemote({ server, path: REPORT_PATH, permissions: LEARNER });
    expect(await screen.findByText('Nachweise, Seite 1 von 2')).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Seitennavigation' })).toBeInTheDocument();
  });

  it('shows no paging for a report that fits one page', async () => {
    serveReport(server, report({ evidence: IMAGES.slice(0, 10) }));
    renderRemote({ server, path: REPORT_PATH, permissions: LEARNER });
    await screen.findByRole('article', { name: 'Image 10: Shot 10' });
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).not.toBeInTheDocument();
    expect(shownImages()).toHaveLength(10);
  });
});

describe('evidence pages', () => {
  const doses = { eye: 1, chest: 2, hip: 3 };
  const lessonOf = (index: number, firstId: number): Evidence[] => [
    lessonPart(firstId, { index, partIndex: 0, doseTime: 10, doses }, { hasImage: true }),
    lessonPart(firstId + 1, { index, partIndex: 1, doseTime: 10, doses }, { hasImage: true }),
  ];

  it('count a lesson as one item, never split it, and show lessons before plain images', () => {
    const all = [...IMAGES.slice(0, 3), ...Array.from({ length: 9 }, (_, i) => lessonOf(i, 2001 + 2 * i)).flat()];
    const pages = paginateEvidence(all, 10);
    expect(pages).toHaveLength(2);
    expect(pages[0]!.lessons).toHaveLength(9);
    expect(pages[0]!.images.map((i) => i.evidence.id)).toEqual([1001]);
    expect(pages[0]!.imageIds).toHaveLength(19);
    expect(pages[1]!.images.map((i) => i.index)).toEqual([1, 2]);
    expect(pageOfEvidence(pages, 2018)).toBe(1);
    expect(pageOfEvidence(pages, 1003)).toBe(2);
    expect(pageOfEvidence(pages, 9999)).toBeUndefined();
  });

  it('never put more images on a page than one signed-URL call may ask for', () => {
    const pages = paginateEvidence(IMAGES, 150);
    expect(pages.map((p) => p.imageIds.length)).toEqual([100, 100]);
  });
});
