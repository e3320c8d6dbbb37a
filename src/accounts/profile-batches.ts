/**
 * # Profiles read together
 *
 * `account.getInfo` is answered from one statement per profile (PROFILE_TEXT_SQL), and under load the statement's
 * round trip cost the API more than its row: the driver's bind, describe, execute and sync messages, their socket
 * write, a pool checkout and the row description parsed again, and PostgreSQL's executor started and stopped for
 * each. The profiles asked during one turn of the event loop are read together instead, up to PROFILE_BATCH_MAX per
 * statement, each row telling which of them it is (DataLoader, scheduled on setImmediate: a load waits at most for
 * the I/O callbacks already due; nothing is cached between turns, so each read sees the rows as they are at its
 * statement).
 */
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import DataLoader from 'dataloader';
import { perTurnLoader } from '../common/batching/per-turn-loader';
import { DataSource } from 'typeorm';
import { PROFILE_TEXT_SQL, ProfileTextRow } from './mappers/profile-text';

/** One profile asked for: its account, and the version of its row the process's card replica holds ('' for none). */
interface ProfileRead {
  accountId: number;
  version: string;
}

/**
 * At most this many profiles per statement: a turn that asks more sends several statements at once, which two
 * PostgreSQL backends read side by side while the API writes the answers of the batch that came back first. At 64
 * (every profile of a turn in one statement) the 16 requests in flight of the bench moved in lockstep: the API idle
 * while one backend read them all, then PostgreSQL idle while the API answered them; `account.getInfo` served
 * ~15 % more per second at 8 than at 64, and no better at 4, 6, 12 or 16 (docs/performance-history.md, "Profiles
 * read in batches of eight").
 */
export const PROFILE_BATCH_MAX = 8;

/** Reads profiles for `account.getInfo`, the ones asked in one turn by one statement (see the top of this file). */
@Injectable()
export class ProfileBatches {
  private readonly loader: DataLoader<ProfileRead, ProfileTextRow | null>;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.loader = perTurnLoader((reads: readonly ProfileRead[]) => this.readAll(reads), PROFILE_BATCH_MAX);
  }

  /** The profile's row, or null when the account is not stored. */
  read(accountId: number, version: string): Promise<ProfileTextRow | null> {
    return this.loader.load({ accountId, version });
  }

  private async readAll(reads: readonly ProfileRead[]): Promise<(ProfileTextRow | null)[]> {
    const rows = (await this.dataSource.query(PROFILE_TEXT_SQL, [
      reads.map((read) => read.accountId),
      reads.map((read) => read.version),
    ])) as ProfileTextRow[];
    const found: (ProfileTextRow | null)[] = reads.map(() => null);
    for (const row of rows) found[row.at - 1] = row;
    return found;
  }
}
