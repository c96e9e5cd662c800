import { expect, type Page } from '@playwright/test';
import { SimulatorPage } from './simulator-page';

/** The simulation remote: product cards, category drill-down, launch screen. */
export class SimulationPage {
  constructor(private readonly page: Page) {}

  async open() {
    await this.page.goto('/simulation');
  }

  /** Follows cards by their names: product, then categories, down to a leaf. */
  async drillDown(...names: string[]) {
    for (const name of names) {
      await this.page.getByRole('link', { name, exact: true }).click();
      await expect(this.page.getByRole('navigation', { name: /breadcrumb/i })).toContainText(name);
    }
  }

  launchButton(mode: 'VR' | 'Desktop') {
    return this.page.getByRole('button', { name: mode, exact: true });
  }

  /** Launches the leaf shown in desktop mode: the simulator stand-in opens in a window and joins. */
  async launchDesktop(productName: string): Promise<SimulatorPage> {
    const popup = this.page.waitForEvent('popup');
    await this.launchButton('Desktop').click();
    const simulator = new SimulatorPage(await popup);
    await simulator.expectJoined(productName);
    return simulator;
  }
}
