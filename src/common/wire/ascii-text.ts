/**
 * ASCII text written into one reused byte buffer and read out as one string, for answer parts assembled from many
 * small numbers (the profile's 160 ranks and totals). Built by concatenation, such a text allocated a string per number
 * and per join: a tenth of what `account.getInfo` allocated (docs/performance-history.md, "The ranks' text written as
 * bytes"). One writer per module, used synchronously from `start` to `done`: nothing else runs in between.
 */
export class AsciiText {
  private buffer = Buffer.allocUnsafe(2048);
  private at = 0;

  start(): this {
    this.at = 0;
    return this;
  }

  /** Bytes already encoded (constants: encode them once, with `AsciiText.bytesOf`). */
  bytes(bytes: Uint8Array): this {
    this.room(bytes.length);
    this.buffer.set(bytes, this.at);
    this.at += bytes.length;
    return this;
  }

  /** One ASCII character by its code. */
  char(code: number): this {
    this.room(1);
    this.buffer[this.at++] = code;
    return this;
  }

  /** A non-negative integer below 2^53 in decimal, as `String(n)` writes it. */
  int(n: number): this {
    if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`AsciiText.int: ${n} is not a non-negative safe integer`);
    let digits = 1;
    for (let rest = n; rest >= 10; rest = Math.floor(rest / 10)) digits++;
    this.room(digits);
    let rest = n;
    for (let i = this.at + digits - 1; i >= this.at; i--) {
      this.buffer[i] = 48 + (rest % 10);
      rest = Math.floor(rest / 10);
    }
    this.at += digits;
    return this;
  }

  /** The text written since `start`, as one string. */
  done(): string {
    return this.buffer.toString('latin1', 0, this.at);
  }

  /** An ASCII constant's bytes, for `bytes`. */
  static bytesOf(ascii: string): Uint8Array {
    if (!/^[\x20-\x7e]*$/.test(ascii)) throw new Error(`AsciiText: ${JSON.stringify(ascii)} is not printable ASCII`);
    return Buffer.from(ascii, 'latin1');
  }

  private room(bytes: number): void {
    if (this.at + bytes <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.at + bytes));
    this.buffer.copy(grown, 0, 0, this.at);
    this.buffer = grown;
  }
}
