import { expect, type Page } from '@playwright/test';

/** The browser stand-in for the desktop/VR app (simulator/), opened by the launch link. */
export class SimulatorPage {
  constructor(readonly page: Page) {}

  async expectJoined(productName: string) {
    await expect(this.page.getByRole('heading', { name: `${productName} simulator` })).toBeVisible();
  }

  capturedImages() {
    return this.page.getByRole('img', { name: /X-ray/i });
  }

  async takeImages(count: number) {
    for (let i = 1; i <= count; i += 1) {
      await this.page.getByRole('button', { name: 'Take image' }).click();
      await expect(this.capturedImages()).toHaveCount(i);
    }
  }

  async finish() {
    await this.page.getByRole('button', { name: 'Finish session' }).click();
    await expect(this.page.getByText('Session complete')).toBeVisible();
  }
}
