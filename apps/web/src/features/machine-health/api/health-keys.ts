/** Query keys of a machine's health views. */
export const healthKeys = {
  health: (espId: string) => ['machine-health', espId] as const,
  telemetryAll: (espId: string) => ['machine-telemetry', espId] as const,
  telemetry: (espId: string, from: string, to: string) => ['machine-telemetry', espId, from, to] as const,
  alarmSettings: (espId: string) => ['alarm-settings', espId] as const,
};
