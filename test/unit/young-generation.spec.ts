import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { API_V8_FLAGS } from '../../src/common/lifecycle/young-generation';

const read = (file: string) => readFileSync(join(__dirname, '../..', file), 'utf8');

/** V8 reads these only on the command line that starts a process: each way of starting the API must carry them. */
describe("the API's young generation (API_V8_FLAGS) on every command line that starts the API", () => {
  it('should be asked for with a fixed size that V8 accepts (both bounds, in MB)', () => {
    expect(API_V8_FLAGS).toEqual([
      expect.stringMatching(/^--min-semi-space-size=\d+$/),
      expect.stringMatching(/^--max-semi-space-size=\d+$/),
    ]);
    expect(API_V8_FLAGS[0].split('=')[1]).toBe(API_V8_FLAGS[1].split('=')[1]);
  });

  it("should be in the image's CMD and docker-compose's api service", () => {
    const exec = JSON.stringify(['node', ...API_V8_FLAGS, 'dist/src/main.js']).replace(/,/g, ', ');
    expect(read('Dockerfile')).toContain(`CMD ${exec}`);
    expect(read('docker-compose.yml')).toContain(`command: ${exec}`);
  });

  it('should be in `npm run start:api`, and start.ts should fork the API (only) with them', () => {
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    expect(scripts['start:api']).toContain(`node ${API_V8_FLAGS.join(' ')} dist/src/main.js`);
    expect(read('src/start.ts')).toMatch(/\['api', 'main\.js', API_V8_FLAGS\]/);
    expect(read('src/start.ts')).toMatch(/\['worker', 'worker\.js', \[\]\]/);
  });
});
