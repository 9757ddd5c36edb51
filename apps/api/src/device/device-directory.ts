import { Injectable } from '@nestjs/common';
import { DeviceRepository } from './device.repository.js';

/**
 * The machines as other domains see them: lookups within the caller's tenant scope, and the assignment
 * changes of users (attendants) made in the caller's transaction.
 */
@Injectable()
export class DeviceDirectory {
  constructor(private readonly devices: DeviceRepository) {}

  listVisible(...args: Parameters<DeviceRepository['listVisible']>) {
    return this.devices.listVisible(...args);
  }

  findVisible(...args: Parameters<DeviceRepository['findVisible']>) {
    return this.devices.findVisible(...args);
  }

  findForUpdate(...args: Parameters<DeviceRepository['findForUpdate']>) {
    return this.devices.findForUpdate(...args);
  }

  exists(...args: Parameters<DeviceRepository['exists']>) {
    return this.devices.exists(...args);
  }

  update(...args: Parameters<DeviceRepository['update']>) {
    return this.devices.update(...args);
  }

  clearAttendant(...args: Parameters<DeviceRepository['clearAttendant']>) {
    return this.devices.clearAttendant(...args);
  }
}
