import { parentPort, workerData } from 'node:worker_threads';
import { examineJsonBody } from './json-body-examiner';
import { RequestShapes, ShapeSchema } from './request-shape';

/**
 * The thread JsonBodyPool starts: examines one raw body per message (see examineJsonBody) and answers with the
 * same id, transferring the bytes of big strings instead of copying them.
 */
if (parentPort && workerData?.jsonBodyWorker) {
  const port = parentPort;
  const shapes = new RequestShapes(workerData.components as Record<string, ShapeSchema>);
  // Bodies arrive in chunks as the socket delivers them, so the main thread never assembles megabytes.
  const chunks = new Map<number, Uint8Array[]>();
  port.on('message', (message: { id: number; chunk?: Uint8Array; end?: boolean; discard?: boolean; schema?: string }) => {
    const { id } = message;
    if (message.chunk) {
      const list = chunks.get(id) ?? [];
      list.push(message.chunk);
      chunks.set(id, list);
      return;
    }
    const list = chunks.get(id) ?? [];
    chunks.delete(id);
    if (message.discard || !message.end) return;
    try {
      const examined = examineJsonBody(Buffer.concat(list), message.schema!, shapes);
      port.postMessage({ id, examined }, examined.kind === 'body' ? examined.strings.map((string) => string.bytes) : []);
    } catch (error) {
      port.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
    }
  });
  port.postMessage({ ready: true });
}
