import { describe, expect, it } from '@jest/globals';
import { mayHaveArrived } from './channel-error.js';

describe('mayHaveArrived', () => {
  it('is false only for a connection that was never made', () => {
    for (const code of ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT']) {
      expect({ code, arrived: mayHaveArrived(code) }).toEqual({ code, arrived: false });
    }
    for (const code of ['UND_ERR_SOCKET', 'ECONNRESET', 'UND_ERR_HEADERS_TIMEOUT', undefined]) {
      expect({ code, arrived: mayHaveArrived(code) }).toEqual({ code, arrived: true });
    }
  });
});
