import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateOpenApiJson } from '../src/openapi-json';

/** `npm run openapi`: rewrites openapi.json from the code; a test fails while the two differ. */
generateOpenApiJson()
  .then((json) => {
    writeFileSync(join(__dirname, '..', 'openapi.json'), json);
    process.stdout.write('openapi.json written\n');
  })
  .catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
