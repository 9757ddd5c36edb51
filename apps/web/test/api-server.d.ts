/** What the fake API was asked: the path under /api, the query as an object, the parsed JSON body. */
export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

/** How it answers one request: a JSON value (or text) with a status, 200 by default. */
export interface Answer {
  status?: number;
  body?: unknown;
  contentType?: string;
}

export interface ApiServer {
  /** The API base URL for `env.apiUrl`, e.g. `http://127.0.0.1:40123/api`. */
  readonly apiUrl: string;
  readonly requests: RecordedRequest[];
  /** Sets how the server answers from now on (404 until a test says otherwise). */
  answer(handler: (request: RecordedRequest) => Answer | Promise<Answer>): void;
  close(): Promise<void>;
}

export function startApiServer(): Promise<ApiServer>;
