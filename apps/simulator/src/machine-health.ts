import type { Sale } from '@wv/contracts';
import type { Random } from './prng.js';

/**
 * One telemetry message (docs/device-protocol.md, "Telemetry"): percentages 0–100, the TDS of the
 * pure water in ppm, the chilled water's temperature, and the controller's error code or null.
 */
export interface TelemetryMessage {
  time: string;
  tankLevelPct: number;
  tdsPpm: number;
  coldWaterTempC: number;
  coinBoxPct: number;
  errorCode: string | null;
}

/** What a machine looks like physically; every figure has a default sized for its sales rate. */
export interface HealthParams {
  tankCapacityLitres: number;
  /** The float valve opens below this level and closes at 100 %. */
  refillBelowPct: number;
  /** Litres per minute the supply delivers while refilling. */
  refillLitresPerMinute: number;
  /** The pure water's TDS in normal operation (a working reverse-osmosis membrane). */
  normalTdsPpm: number;
  /** What TDS climbs towards while the membrane is failing. */
  spikeTdsPpm: number;
  /** Time constant of TDS after the membrane fails or recovers: within a minute, it has moved most of the way. */
  membraneResponseSeconds: number;
  /** The chiller's thermostat. */
  coldSetpointC: number;
  /** Degrees above the setpoint that warm inflow holds the tank at under the mean demand. */
  chillerWarmingC: number;
  /** Value of coins (currency units) the coin box holds when full. */
  coinBoxCapacity: number;
  /** Litres a minute the tank leaks towards empty while its supply is cut (a low-tank fault). */
  leakLitresPerMinute: number;
}

/** Mean litres of a sale, from the volume mix of sale-generator.ts (1, 5, 10, 20 and odd amounts). */
export const MEAN_SALE_LITRES = 8.45;
/** Mean coin value of a sale: 65 % of sales are coin, at about 35 per litre. */
const MEAN_COIN_VALUE_PER_SALE = 0.65 * MEAN_SALE_LITRES * 35;
/** Cold water's share of sales (sale-generator.ts). */
const COLD_SHARE = 0.25;
/** The day curve's busiest hour is 2.7 times the mean: the supply keeps up with 3 times the mean. */
const SUPPLY_HEADROOM = 3;
/** The chiller's relaxation time: it pulls warm inflow back to the setpoint within minutes. */
const CHILLER_TAU_S = 300;
/** The box is emptied by the attendant at a level drawn anew after each collection. */
const COLLECT_AT_PCT: readonly [number, number] = [55, 97];
/** The smallest chiller sold: a quiet machine's one jerrycan of cold water warms it by about a degree. */
const MIN_CHILLER_LITRES_PER_MINUTE = 5;
/** A leaking tank stops draining at its outlet's height. */
const LEAK_FLOOR_PCT = 5;
/** The low-level switch of the tank. */
const OUT_OF_WATER_PCT = 2;

/** Sensible parameters for a machine selling `salesPerSecond` on average. */
export function defaultHealthParams(salesPerSecond: number): HealthParams {
  const litresPerMinute = salesPerSecond * 60 * MEAN_SALE_LITRES;
  return {
    tankCapacityLitres: 5_000,
    refillBelowPct: 40,
    refillLitresPerMinute: Math.max(100, SUPPLY_HEADROOM * litresPerMinute),
    normalTdsPpm: 120,
    spikeTdsPpm: 850,
    membraneResponseSeconds: 20,
    coldSetpointC: 6,
    chillerWarmingC: 1.5,
    // About six hours of the mean coin takings, and never less than a small kiosk's box.
    coinBoxCapacity: Math.max(150_000, salesPerSecond * 6 * 3600 * MEAN_COIN_VALUE_PER_SALE),
    leakLitresPerMinute: 1_000,
  };
}

/** The cold water a minute that the chiller is sized for at this mean rate. */
function chillerLitresPerMinute(salesPerSecond: number): number {
  return Math.max(MIN_CHILLER_LITRES_PER_MINUTE, salesPerSecond * 60 * MEAN_SALE_LITRES * COLD_SHARE);
}

const round1 = (n: number) => Math.round(n * 10) / 10;
const clamp = (n: number, min: number, max: number) => Math.min(max, Math.max(min, n));

/**
 * The physical state behind a machine's telemetry: the water tank (falls with every litre
 * dispensed, refilled by a float valve), the TDS after the membrane, the chilled water's
 * temperature, and the coin box (fills with coin sales, emptied by the attendant). Time-based and
 * pure given its random stream: `advance(ms)` moves it to a moment, so tests drive it with any clock.
 */
export class HealthModel {
  private params: HealthParams;
  private at: number;
  private tankLitres: number;
  private refilling = false;
  private tds: number;
  private coldC: number;
  private coins = 0;
  private collectAtPct: number;
  /** Litres of cold water per minute that the chiller is sized for (warming per litre follows). */
  private meanColdLitresPerMinute: number;
  /** Fault switches (fault.ts). */
  supplyCut = false;
  membraneFailed = false;
  errorCode: string | null = null;

  constructor(
    private readonly rng: Random,
    salesPerSecond: number,
    startAt: number,
    params: Partial<HealthParams> = {},
  ) {
    this.params = { ...defaultHealthParams(salesPerSecond), ...params };
    this.meanColdLitresPerMinute = chillerLitresPerMinute(salesPerSecond);
    this.at = startAt;
    this.tankLitres = this.params.tankCapacityLitres * (0.6 + 0.4 * rng.next());
    this.tds = this.params.normalTdsPpm + this.noise(8);
    this.coldC = this.params.coldSetpointC + rng.next();
    this.collectAtPct = this.drawCollectLevel();
    this.coins = this.params.coinBoxCapacity * 0.4 * rng.next();
  }

  get tankLevelPct(): number {
    return (100 * this.tankLitres) / this.params.tankCapacityLitres;
  }

  get coinBoxPct(): number {
    return (100 * this.coins) / this.params.coinBoxCapacity;
  }

  /** A new mean rate (the fleet's rate changed): the supply and the chiller are sized for it. */
  resize(salesPerSecond: number): void {
    const sized = defaultHealthParams(salesPerSecond);
    this.params.refillLitresPerMinute = sized.refillLitresPerMinute;
    this.meanColdLitresPerMinute = chillerLitresPerMinute(salesPerSecond);
  }

  /** Sets the tank to a level (tests and a scripted low tank start from a known level). */
  setTankLevelPct(pct: number): void {
    this.tankLitres = (clamp(pct, 0, 100) / 100) * this.params.tankCapacityLitres;
  }

  /** Moves the physical state forward to `now` (ms since the epoch); earlier moments are ignored. */
  advance(now: number): void {
    const dt = (now - this.at) / 1000;
    if (dt <= 0) return;
    this.at = now;
    const p = this.params;
    const minutes = dt / 60;
    // The float valve: opens below refillBelowPct, closes when full; a cut supply delivers nothing
    // and the tank drains (a burst pipe or a dry borehole pump drawing it down).
    if (this.tankLevelPct < p.refillBelowPct) this.refilling = true;
    if (this.supplyCut) {
      const floor = (LEAK_FLOOR_PCT / 100) * p.tankCapacityLitres;
      if (this.tankLitres > floor) this.tankLitres = Math.max(floor, this.tankLitres - p.leakLitresPerMinute * minutes);
    } else if (this.refilling) {
      this.tankLitres = Math.min(p.tankCapacityLitres, this.tankLitres + p.refillLitresPerMinute * minutes);
      if (this.tankLitres >= p.tankCapacityLitres) this.refilling = false;
    }
    // TDS and temperature relax exponentially towards their targets, with sensor noise added at reading.
    const tdsTarget = this.membraneFailed ? p.spikeTdsPpm : p.normalTdsPpm;
    this.tds += (tdsTarget - this.tds) * (1 - Math.exp(-dt / p.membraneResponseSeconds));
    this.coldC += (p.coldSetpointC - this.coldC) * (1 - Math.exp(-dt / CHILLER_TAU_S));
  }

  /** A sale dispensed `litres` (what the flow meter measured): the tank, chiller and coin box follow. */
  recordSale(sale: Pick<Sale, 'kind' | 'price' | 'waterType'>, litres: number, now: number): void {
    this.advance(now);
    this.tankLitres = Math.max(0, this.tankLitres - litres);
    if (sale.waterType === 'cold') {
      // Warm inflow replaces what was drawn; warming per litre is such that the mean demand holds the
      // water chillerWarmingC above the setpoint (the chiller is sized for the machine's sales).
      const perLitre = this.params.chillerWarmingC / (this.meanColdLitresPerMinute * (CHILLER_TAU_S / 60));
      this.coldC += perLitre * litres;
    }
    if (sale.kind === 'coin') {
      this.coins = Math.min(this.params.coinBoxCapacity, this.coins + sale.price);
      // The attendant empties the box on the next round once it is past the level they tolerate.
      if (this.coinBoxPct >= this.collectAtPct) this.emptyCoinBox();
    }
  }

  emptyCoinBox(): void {
    this.coins = 0;
    this.collectAtPct = this.drawCollectLevel();
  }

  /** Below its low-level switch the machine stops vending rather than run the pump dry. */
  get outOfWater(): boolean {
    return this.tankLevelPct < OUT_OF_WATER_PCT;
  }

  /** The telemetry message for `now`: the state with sensor noise, rounded as firmware would send it. */
  reading(now: number): TelemetryMessage {
    this.advance(now);
    return {
      time: new Date(now).toISOString(),
      tankLevelPct: round1(clamp(this.tankLevelPct, 0, 100)),
      tdsPpm: Math.round(Math.max(0, this.tds + this.noise(this.membraneFailed ? 20 : 5))),
      coldWaterTempC: round1(this.coldC + this.noise(0.2)),
      coinBoxPct: round1(clamp(this.coinBoxPct, 0, 100)),
      errorCode: this.errorCode,
    };
  }

  private drawCollectLevel(): number {
    const [min, max] = COLLECT_AT_PCT;
    return min + this.rng.next() * (max - min);
  }

  /** Uniform noise in [-amplitude, amplitude]. */
  private noise(amplitude: number): number {
    return (this.rng.next() * 2 - 1) * amplitude;
  }
}
