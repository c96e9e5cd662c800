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

  /**
   * Takes `count` images at the simulator's current exposure settings by posting its capture form
   * directly: a full session (up to 200 images) without waiting for the page to draw every image.
   * The API lets a session upload 60 evidence a minute; the simulator answers a refused upload
   * with "Portal unavailable" (502), so that one is tried again until the limit's window turns.
   */
  async postImages(count: number) {
    const token = new URL(this.page.url()).searchParams.get('token') ?? '';
    const tube = {
      kV: await this.page.getByLabel('Tube voltage (kV)').inputValue(),
      mAs: await this.page.getByLabel('Tube current-time product (mAs)').inputValue(),
      sidCm: await this.page.getByLabel('Source-to-image distance (cm)').inputValue(),
    };
    const origin = new URL(this.page.url()).origin;
    for (let taken = 0; taken < count; ) {
      const response = await this.page.request.post(`${origin}/launch/capture`, { form: { token, ...tube } });
      if (response.ok()) {
        taken += 1;
        continue;
      }
      expect(response.status(), `image ${taken + 1}: ${await response.text()}`).toBe(502);
      await this.page.waitForTimeout(5_000);
    }
  }

  async finish() {
    await this.page.getByRole('button', { name: 'Finish session' }).click();
    await expect(this.page.getByText('Session complete')).toBeVisible();
  }
}
