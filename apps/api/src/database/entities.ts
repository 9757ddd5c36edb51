import { DeviceEntity } from '../device/device.entity.js';
import { MacAnnouncementEntity } from '../device/mac-announcement.entity.js';
import { UserEntity } from '../user/user.entity.js';

export const entities = [UserEntity, DeviceEntity, MacAnnouncementEntity];
