import { createSocket, RemoteInfo, Socket } from 'node:dgram';
import { AddressInfo } from 'node:net';

/** What the server knows of a name: its TXT strings and IPv4 addresses. */
export interface DnsRecords {
  txt?: string[];
  a?: string[];
}

const TYPE_A = 1;
const TYPE_TXT = 16;

/**
 * A real authoritative DNS server over UDP on 127.0.0.1 (RFC 1035 wire format), for tests that resolve names through
 * it (DOMAIN_VERIFY_DNS_SERVERS): A and TXT records from a map that tests change as they go; an unknown name is
 * NXDOMAIN, a known one without records of the asked type an empty NOERROR (NODATA).
 */
export class TestDnsServer {
  readonly records = new Map<string, DnsRecords>();
  private socket: Socket | null = null;

  async start(): Promise<number> {
    const socket = createSocket('udp4');
    this.socket = socket;
    socket.on('message', (message, remote) => this.answer(message, remote));
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    return (socket.address() as AddressInfo).port;
  }

  close(): Promise<void> {
    return new Promise((resolve) => (this.socket ? this.socket.close(() => resolve()) : resolve()));
  }

  private answer(query: Buffer, remote: RemoteInfo): void {
    if (query.length < 12) return;
    // The question: labels up to the zero byte, then type and class.
    const labels: string[] = [];
    let at = 12;
    while (at < query.length && query[at] !== 0) {
      labels.push(query.subarray(at + 1, at + 1 + query[at]).toString('ascii'));
      at += query[at] + 1;
    }
    const questionEnd = at + 5;
    const type = query.readUInt16BE(at + 1);
    const name = labels.join('.').toLowerCase();
    const known = this.records.get(name);
    const answers: Buffer[] = [];
    for (const address of type === TYPE_A ? (known?.a ?? []) : [])
      answers.push(record(TYPE_A, Buffer.from(address.split('.').map(Number))));
    for (const text of type === TYPE_TXT ? (known?.txt ?? []) : []) {
      const bytes = Buffer.from(text, 'utf8');
      answers.push(record(TYPE_TXT, Buffer.concat([Buffer.from([bytes.length]), bytes])));
    }
    const header = Buffer.alloc(12);
    query.copy(header, 0, 0, 2);
    // QR, AA, RD copied; RCODE 3 (NXDOMAIN) for names it does not know.
    header.writeUInt16BE(0x8400 | (query.readUInt16BE(2) & 0x0100) | (known ? 0 : 3), 2);
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(answers.length, 6);
    this.socket?.send(Buffer.concat([header, query.subarray(12, questionEnd), ...answers]), remote.port, remote.address);
  }
}

/** One answer record for the question's name (a pointer to offset 12), class IN, TTL 0. */
function record(type: number, data: Buffer): Buffer {
  const head = Buffer.alloc(12);
  head.writeUInt16BE(0xc00c, 0);
  head.writeUInt16BE(type, 2);
  head.writeUInt16BE(1, 4);
  head.writeUInt32BE(0, 6);
  head.writeUInt16BE(data.length, 10);
  return Buffer.concat([head, data]);
}
