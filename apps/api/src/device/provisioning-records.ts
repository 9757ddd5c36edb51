import { Injectable } from '@nestjs/common';
import { DeviceRepository } from './device.repository.js';

export type { ProvisioningState } from './device.repository.js';

/**
 * The records of machine provisioning that the broker's provisioning flow reads and writes
 * (docs/device-protocol.md, "Identity and provisioning"): pinned secrets, announcements and pending keys.
 */
@Injectable()
export class ProvisioningRecords {
  constructor(private readonly devices: DeviceRepository) {}

  provisioningState(...args: Parameters<DeviceRepository['provisioningState']>) {
    return this.devices.provisioningState(...args);
  }

  insertPinned(...args: Parameters<DeviceRepository['insertPinned']>) {
    return this.devices.insertPinned(...args);
  }

  pinProvisionSecret(...args: Parameters<DeviceRepository['pinProvisionSecret']>) {
    return this.devices.pinProvisionSecret(...args);
  }

  touchMac(...args: Parameters<DeviceRepository['touchMac']>) {
    return this.devices.touchMac(...args);
  }

  pendingAssignment(...args: Parameters<DeviceRepository['pendingAssignment']>) {
    return this.devices.pendingAssignment(...args);
  }

  clearPendingAssignments(...args: Parameters<DeviceRepository['clearPendingAssignments']>) {
    return this.devices.clearPendingAssignments(...args);
  }
}
