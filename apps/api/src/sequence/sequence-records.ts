import { Injectable } from '@nestjs/common';
import { SequenceRepository } from './sequence.repository.js';

/** What the broker role records of a machine's status payload: the sales it still holds in flash. */
@Injectable()
export class SequenceRecords {
  constructor(private readonly sequences: SequenceRepository) {}

  setQueued(espId: string, queued: number): Promise<void> {
    return this.sequences.setQueued(espId, queued);
  }
}
