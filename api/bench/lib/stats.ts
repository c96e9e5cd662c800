/** Figures of one route over the measurement window. Latencies in milliseconds. */
export interface RouteStats {
  route: string;
  requests: number;
  throughput: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  errors: number;
  /** First few unexpected answers, to tell a slow route from a broken one. */
  errorSamples: string[];
}

/** Nearest-rank percentile of an ascending array (0 for an empty one). */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

class Series {
  private values = new Float64Array(4096);
  length = 0;
  errors = 0;
  errorSamples: string[] = [];

  push(value: number) {
    if (this.length === this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.length++] = value;
  }

  sorted(): Float64Array {
    return this.values.slice(0, this.length).sort();
  }
}

/**
 * Latencies per route, counted only for requests *scheduled* inside the measurement window, so the
 * warm-up (JIT, first session creations of every learner at once) and the drain stay out of it.
 */
export class Recorder {
  private readonly series = new Map<string, Series>();
  /** How late the generator itself sent requests against their schedule (its own saturation). */
  readonly sendLag = new Series();

  constructor(
    private readonly windowStart: number,
    private readonly windowEnd: number,
  ) {}

  inWindow(scheduledAt: number): boolean {
    return scheduledAt >= this.windowStart && scheduledAt < this.windowEnd;
  }

  private of(route: string): Series {
    let s = this.series.get(route);
    if (!s) {
      s = new Series();
      this.series.set(route, s);
    }
    return s;
  }

  record(route: string, scheduledAt: number, sentAt: number, endedAt: number, error?: string) {
    if (!this.inWindow(scheduledAt)) return;
    const s = this.of(route);
    // Timers may fire a fraction of a millisecond early; such a request is timed from its send.
    s.push(endedAt - Math.min(scheduledAt, sentAt));
    this.sendLag.push(Math.max(0, sentAt - scheduledAt));
    if (error !== undefined) {
      s.errors++;
      if (s.errorSamples.length < 3) s.errorSamples.push(error);
    }
  }

  routes(): RouteStats[] {
    const span = (this.windowEnd - this.windowStart) / 1000;
    // An unbounded window (the calibration pass) has no meaningful rate.
    const seconds = Number.isFinite(span) ? span : Number.POSITIVE_INFINITY;
    return [...this.series.entries()].map(([route, s]) => {
      const sorted = s.sorted();
      return {
        route,
        requests: s.length,
        throughput: s.length / seconds,
        p50: percentile(sorted, 50),
        p95: percentile(sorted, 95),
        p99: percentile(sorted, 99),
        max: sorted.length > 0 ? sorted[sorted.length - 1]! : 0,
        errors: s.errors,
        errorSamples: s.errorSamples,
      };
    });
  }

  lag(): { p50: number; p99: number; max: number } {
    const sorted = this.sendLag.sorted();
    return {
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      max: sorted.length > 0 ? sorted[sorted.length - 1]! : 0,
    };
  }
}
