import { ConfigStatus } from './config-status';
import { TariffsPanel } from './tariffs-panel';
import { WifiPanel } from './wifi-panel';

/** Device Settings: the Wi-Fi and Tariffs panels side by side (stacked on a phone). */
export function DeviceSettings({ espId }: { espId: string }) {
  return (
    <div className="stack">
      <ConfigStatus espId={espId} />
      <div className="settings-grid">
        <WifiPanel espId={espId} />
        <TariffsPanel espId={espId} />
      </div>
    </div>
  );
}
