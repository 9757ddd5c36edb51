// Writes docs/asyncapi.json from the built API (`npm run docs:asyncapi` builds first), formatted as
// Prettier formats JSON so that `npm run lint` accepts the file as written.
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import prettier from 'prettier';
import { buildAsyncApiDocument } from '../apps/api/dist/asyncapi/asyncapi-document.js';

const target = fileURLToPath(new URL('../docs/asyncapi.json', import.meta.url));
const options = (await prettier.resolveConfig(target)) ?? {};
const text = await prettier.format(JSON.stringify(buildAsyncApiDocument(), null, 2), { ...options, parser: 'json' });
await writeFile(target, text);
console.log(`wrote ${target}`);
