import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig } from './config/app-config.js';
import { startApp } from './bootstrap.js';

const defaultWebDist = fileURLToPath(new URL('../../web/dist', import.meta.url));

try {
  const config = loadConfig();
  const running = await startApp({ ...config, webDist: config.webDist ?? defaultWebDist }, { ownProcess: true });
  // SIGTERM/SIGINT: the broker drains and in-flight sales reach Redis before the database closes.
  running.app.enableShutdownHooks();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(`Cannot start: ${error.message}`);
  } else {
    console.error('Cannot start:', error);
  }
  process.exit(1);
}
