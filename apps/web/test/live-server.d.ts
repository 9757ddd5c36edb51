export interface LiveServer {
  /** The page's new address: the app's same-origin Socket.IO connection comes here. */
  readonly url: string;
  /** The token each connection authenticated with. */
  readonly tokens: string[];
  /** Resolves once a client is connected. */
  connected(): Promise<void>;
  /** Sends a live event to every connected client. */
  emit(event: string, payload: unknown): void;
  close(): Promise<void>;
}

export function startLiveServer(): Promise<LiveServer>;
