import { randomUUID } from 'node:crypto';
import type { TubeSettings } from '@portal/contract';
import type { CaptureSummary } from '@portal/xray';

export interface StoredCapture {
  /** Random, unguessable: the image URL is the only key to the picture. */
  id: string;
  evidenceId: number;
  summary: CaptureSummary;
  image: Buffer | null;
}

export interface SessionDesk {
  uuid: string;
  /** When this simulator first joined the session, for the report's duration. */
  joinedAt: number;
  /** The technique last used, so the form keeps it after each image. */
  tube: TubeSettings | null;
  captures: StoredCapture[];
}

/**
 * What this simulator process captured per session, so the page can list and show the images
 * (the API keeps the evidence; this is only the learner's view of it). Bounded: the sessions used
 * least recently are forgotten first once the images exceed `maxBytes`.
 */
export class CaptureStore {
  private readonly desks = new Map<string, SessionDesk>();
  private readonly images = new Map<string, { uuid: string; image: Buffer }>();
  private bytes = 0;

  constructor(private readonly maxBytes = 64 * 1024 * 1024) {}

  /** The session's desk, created on first use; marks it as recently used. */
  desk(uuid: string): SessionDesk {
    let desk = this.desks.get(uuid);
    if (desk) this.desks.delete(uuid);
    else desk = { uuid, joinedAt: Date.now(), tube: null, captures: [] };
    this.desks.set(uuid, desk);
    return desk;
  }

  add(uuid: string, evidenceId: number, summary: CaptureSummary, image: Buffer | null): StoredCapture {
    const desk = this.desk(uuid);
    const capture: StoredCapture = { id: randomUUID(), evidenceId, summary, image };
    desk.captures.push(capture);
    if (image) {
      this.images.set(capture.id, { uuid, image });
      this.bytes += image.length;
      this.evict(uuid);
    }
    return capture;
  }

  image(id: string): Buffer | null {
    return this.images.get(id)?.image ?? null;
  }

  forget(uuid: string): void {
    const desk = this.desks.get(uuid);
    if (!desk) return;
    for (const capture of desk.captures) {
      const entry = this.images.get(capture.id);
      if (entry) {
        this.bytes -= entry.image.length;
        this.images.delete(capture.id);
      }
    }
    this.desks.delete(uuid);
  }

  get size(): { sessions: number; bytes: number } {
    return { sessions: this.desks.size, bytes: this.bytes };
  }

  private evict(keep: string): void {
    for (const uuid of this.desks.keys()) {
      if (this.bytes <= this.maxBytes) return;
      if (uuid !== keep) this.forget(uuid);
    }
  }
}
