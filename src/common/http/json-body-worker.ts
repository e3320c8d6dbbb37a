import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { Base64Paths, examineJsonBody } from './json-body-examiner';
import { RequestShapes, ShapeSchema } from './request-shape';

/** The nice value of the body thread (the event loop stays at 0; 10 gives it ~10× the thread's CPU share under contention). */
const BODY_THREAD_NICE = 10;

/**
 * The thread JsonBodyPool starts: examines one raw body per message (see examineJsonBody) and answers with the
 * same id, transferring the bytes of big strings instead of copying them.
 */
if (parentPort && workerData?.jsonBodyWorker) {
  const port = parentPort;
  // Bulk work at a lower CPU priority than the event loop, so that on a busy machine the scheduler lets the loop's
  // short requests run first. On Linux the priority of "process 0" is the calling thread's: only this thread is
  // lowered (elsewhere it may be the whole process, so it is done on Linux only). Raising it back needs privileges,
  // which is why a thread that dies is replaced by a new one rather than reused.
  if (process.platform === 'linux') {
    try {
      setPriority(BODY_THREAD_NICE);
    } catch {
      // A container may forbid it; the thread then runs at the loop's priority, as before.
    }
  }
  const shapes = new RequestShapes(workerData.components as Record<string, ShapeSchema>);
  // The body is read in place from the shared receive buffer of its LargeBodyGate slot.
  port.on('message', (message: { id: number; buffer: SharedArrayBuffer; length: number; schema: string; base64: Base64Paths }) => {
    const { id } = message;
    try {
      const examined = examineJsonBody(new Uint8Array(message.buffer, 0, message.length), message.schema, shapes, message.base64);
      const transfer =
        examined.kind === 'body'
          ? [...examined.strings.map((string) => string.bytes), ...examined.decoded.flatMap((field) => field.bytes ?? [])]
          : [];
      port.postMessage({ id, examined }, transfer);
    } catch (error) {
      port.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
    }
  });
  port.postMessage({ ready: true });
}
