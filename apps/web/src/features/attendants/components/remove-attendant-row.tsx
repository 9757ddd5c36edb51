import { useState } from 'react';
import type { AttendantRow } from '@wv/contracts';
import { Button } from '@/components/ui/button';

interface RemoveAttendantRowProps {
  attendant: AttendantRow;
  busy: boolean;
  onRemove: (attendant: AttendantRow) => void;
}

/** One attendant; Remove asks for confirmation in place before anything is sent. */
export function RemoveAttendantRow({ attendant, busy, onRemove }: RemoveAttendantRowProps) {
  const [confirming, setConfirming] = useState(false);
  const name = `${attendant.firstName} ${attendant.lastName}`;
  return (
    <tr>
      <td data-label="Name">{name}</td>
      <td data-label="Phone" className="nowrap">
        {attendant.phoneNumber}
      </td>
      <td data-label="Device">{attendant.esp32Id ?? '—'}</td>
      <td className="cell-actions">
        {confirming ? (
          <div className="inline-confirm" role="group" aria-label={`Confirm removal of ${name}`}>
            <span>Remove {name}? They will no longer be able to sign in.</span>
            <div className="actions">
              <Button variant="danger" busy={busy} onClick={() => onRemove(attendant)}>
                Yes, remove
              </Button>
              <Button variant="secondary" onClick={() => setConfirming(false)}>
                Cancel
              </Button>
            </div>
          </div>
        ) : (
          <Button variant="danger" aria-label={`Remove ${name}`} onClick={() => setConfirming(true)}>
            Remove
          </Button>
        )}
      </td>
    </tr>
  );
}
