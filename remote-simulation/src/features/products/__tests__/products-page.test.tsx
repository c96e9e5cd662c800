import { act, fireEvent, screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import i18next from 'i18next';
import type { ProductList } from '@portal/contract';
import { birthing, radiography } from '../../../testing/fixtures';
import { getProducts } from '../../../testing/handlers';
import { setupTestServer } from '../../../testing/msw-server';
import { renderRemote } from '../../../testing/render-remote';

const server = setupTestServer();

describe('the simulation cards', () => {
  it('show each product with its picture, name and description, linking to its categories', async () => {
    server.use(getProducts([radiography, birthing]));
    renderRemote({ server });

    const link = await screen.findByRole('link', { name: 'Radiography' });
    expect(link).toHaveAttribute('href', '/simulation/1');
    expect(screen.getByRole('link', { name: 'Birthing' })).toHaveAttribute('href', '/simulation/3');

    const card = link.closest('li') as HTMLElement;
    expect(within(card).getByText(radiography.description)).toBeInTheDocument();
    // Images resolve against the remote's own origin, not the page's path.
    expect(card.querySelector('img')).toHaveAttribute(
      'src',
      'http://localhost/images/products/radiography.svg',
    );
  });

  it('show the placeholder for a product without a picture, and for one whose picture fails', async () => {
    server.use(getProducts([radiography, birthing]));
    renderRemote({ server });

    const birthingCard = (await screen.findByRole('link', { name: 'Birthing' })).closest(
      'li',
    ) as HTMLElement;
    expect(birthingCard.querySelector('img')).toHaveAttribute(
      'src',
      'http://localhost/images/placeholder.svg',
    );

    const radiographyImage = (
      screen.getByRole('link', { name: 'Radiography' }).closest('li') as HTMLElement
    ).querySelector('img');
    fireEvent.error(radiographyImage as HTMLImageElement);
    expect(radiographyImage).toHaveAttribute('src', 'http://localhost/images/placeholder.svg');
  });

  it('show a loading skeleton until the products arrive', async () => {
    server.use(getProducts([radiography]));
    renderRemote({ server });

    expect(screen.getByRole('status')).toHaveTextContent('Loading...');
    expect(screen.getByTestId('card-skeleton')).toBeInTheDocument();
    await screen.findByRole('link', { name: 'Radiography' });
    expect(screen.queryByTestId('card-skeleton')).not.toBeInTheDocument();
  });

  it('say so when no simulation is available to the user', async () => {
    server.use(getProducts([]));
    renderRemote({ server });

    expect(
      await screen.findByText(/There are no simulations available to you/),
    ).toBeInTheDocument();
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
  });

  it('show "something went wrong" when the products cannot be loaded', async () => {
    server.use(getProducts(500));
    renderRemote({ server });

    expect(
      await screen.findByText('Something went wrong. Please contact your administrator.'),
    ).toBeInTheDocument();
  });

  it('show "page not found" with refresh when the API refuses the list', async () => {
    server.use(getProducts(403));
    renderRemote({ server });

    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Refresh' })).toBeInTheDocument();
  });

  it('keep the LTI prefix in card links under /lti/simulation', async () => {
    server.use(getProducts([radiography]));
    renderRemote({ server, path: '/lti/simulation' });

    expect(await screen.findByRole('link', { name: 'Radiography' })).toHaveAttribute(
      'href',
      '/lti/simulation/1',
    );
  });

  it('ask for the catalogue in the interface language and show it again after a language switch', async () => {
    const asked: (string | null)[] = [];
    server.use(
      http.get('/api/v1/product', ({ request }) => {
        const language = new URL(request.url).searchParams.get('language');
        asked.push(language);
        const name = language === 'de' ? 'Radiographie' : 'Radiography';
        return HttpResponse.json<ProductList>([{ ...radiography, name }]);
      }),
    );
    renderRemote({ server });
    expect(await screen.findByRole('link', { name: 'Radiography' })).toBeInTheDocument();

    await act(() => i18next.changeLanguage('de'));
    expect(await screen.findByRole('link', { name: 'Radiographie' })).toBeInTheDocument();
    expect(asked).toEqual(['en', 'de']);
    await act(() => i18next.changeLanguage('en'));
  });
});
