import WebTestEnvironment from './jsdom-environment.js';

/**
 * The web test environment in a browser far from the app's time zone: New York (UTC−5, UTC−4 in summer),
 * eight or seven hours behind Dar es Salaam. Node reads TZ again whenever it is set, so the zone holds for
 * the one test file that asks for this environment (`@jest-environment` docblock) and is given back after it.
 */
export default class ForeignZoneEnvironment extends WebTestEnvironment {
  async setup() {
    this.previousZone = process.env.TZ;
    process.env.TZ = 'America/New_York';
    await super.setup();
  }

  async teardown() {
    if (this.previousZone === undefined) delete process.env.TZ;
    else process.env.TZ = this.previousZone;
    await super.teardown();
  }
}
