import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ActionThrottle, ThrottleRule } from '../auth/throttle/action-throttle.service';
import { JsonLogger } from '../common/logging/json-logger';
import { notFound, serviceUnavailable, unprocessable } from '../common/problem/problem.exception';
import { Mailer, OutgoingMail } from './mailer';
import { CODE_TTL_MINUTES, codeHash, hasAddress, MAX_WRONG_CODES, newCode, sameHash, SENDS_PER_HOUR } from './verification-codes';

/** After a failed send: long enough for a restarted or unblocked mail server, short enough to retry by hand. */
const SMTP_RETRY_AFTER_SECONDS = 30;

/** What a tried code came to; decided inside the transaction, answered after its commit (a refusal must not undo the count). */
type Outcome = { kind: 'verified' } | { kind: 'none' | 'expired' | 'address-changed' } | { kind: 'wrong'; left: number };

interface PendingCode {
  email: string;
  code_hash: string;
  expired: boolean;
  failed_attempts: number;
}

/**
 * E-mail verification: a six-digit code to the account's address, then the code back. One pending code per account
 * (a new one replaces it), kept as a hash with the address it was sent to; single-use, short-lived, voided by a few
 * wrong tries; sends limited per account. `emailVerifiedAt` is set only while the account still has that address.
 */
@Injectable()
export class EmailVerificationService {
  private readonly logger = new JsonLogger('EmailVerification');
  private readonly sends: ThrottleRule = {
    action: 'email-verification',
    limit: SENDS_PER_HOUR,
    windowSeconds: 3600,
    detail: `An account is sent at most ${SENDS_PER_HOUR} verification codes an hour; retry after the Retry-After delay.`,
  };

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly mailer: Mailer,
    private readonly throttle: ActionThrottle,
  ) {}

  async send(accountId: number): Promise<void> {
    const [settings]: { email: string; verified: boolean }[] = await this.dataSource.query(
      'SELECT email, email_verified_at IS NOT NULL AS verified FROM account_settings WHERE account_id = $1',
      [accountId],
    );
    if (!settings) throw notFound(`Account ${accountId} has no settings.`);
    if (!hasAddress(settings.email)) {
      throw notFound('This account has no e-mail address to verify: set one with account.updateSettings first.');
    }
    if (settings.verified) {
      throw unprocessable('The account’s e-mail address is already verified.', [
        { location: 'body', message: 'the address is already verified; a new address (account.updateSettings) can be verified again' },
      ]);
    }
    // Counted only for a send that would happen: the refusals above cost the account nothing.
    await this.throttle.take(this.sends, accountId);
    const code = newCode();
    const hash = codeHash(accountId, settings.email, code);
    await this.dataSource.query(
      `INSERT INTO email_verification_codes (account_id, email, code_hash, expires_at, failed_attempts, created_at)
       VALUES ($1, $2, $3, now() + make_interval(mins => $4), 0, now())
       ON CONFLICT (account_id) DO UPDATE SET email = EXCLUDED.email, code_hash = EXCLUDED.code_hash,
         expires_at = EXCLUDED.expires_at, failed_attempts = 0, created_at = EXCLUDED.created_at`,
      [accountId, settings.email, hash, CODE_TTL_MINUTES],
    );
    try {
      await this.mailer.send(verificationMail(settings.email, code));
    } catch (error) {
      // The user never got this code: it must not stay usable (a later send may have replaced it already).
      await this.dataSource.query('DELETE FROM email_verification_codes WHERE account_id = $1 AND code_hash = $2', [accountId, hash]);
      this.logger.warn({ msg: 'verification e-mail not sent', accountId, ...smtpErrorFields(error) });
      throw serviceUnavailable('The mail server did not take the message, so no code was sent; retry later.', SMTP_RETRY_AFTER_SECONDS);
    }
  }

  async verify(accountId: number, code: string): Promise<void> {
    const outcome = await this.dataSource.transaction((manager) => this.tryCode(manager, accountId, code));
    switch (outcome.kind) {
      case 'verified':
        return;
      case 'none':
        throw notFound(
          'No verification code is pending for this account (none was sent, or it was used or voided): send one with account.sendEmailVerification.',
        );
      case 'expired':
        throw notFound(`The code has expired (codes last ${CODE_TTL_MINUTES} minutes): send a new one with account.sendEmailVerification.`);
      case 'address-changed':
        throw notFound('The account’s e-mail address changed after this code was sent, so it is void: send a code to the new address.');
      case 'wrong':
        throw unprocessable(
          outcome.left > 0
            ? `Wrong code: ${outcome.left} more wrong ${outcome.left === 1 ? 'try voids' : 'tries void'} it.`
            : `Wrong code, the ${MAX_WRONG_CODES}th: the code is void now; send a new one with account.sendEmailVerification.`,
          [{ location: 'body.code', message: 'is not the code that was sent' }],
        );
    }
  }

  /** The pending code's row is locked, so concurrent tries are counted one after another and never past the limit. */
  private async tryCode(manager: EntityManager, accountId: number, code: string): Promise<Outcome> {
    const [pending]: PendingCode[] = await manager.query(
      `SELECT email, code_hash, expires_at <= now() AS expired, failed_attempts
       FROM email_verification_codes WHERE account_id = $1 FOR UPDATE`,
      [accountId],
    );
    if (!pending) return { kind: 'none' };
    const remove = () => manager.query('DELETE FROM email_verification_codes WHERE account_id = $1', [accountId]);
    if (pending.expired) {
      await remove();
      return { kind: 'expired' };
    }
    if (!sameHash(pending.code_hash, codeHash(accountId, pending.email, code))) {
      const failed = pending.failed_attempts + 1;
      if (failed >= MAX_WRONG_CODES) await remove();
      else await manager.query('UPDATE email_verification_codes SET failed_attempts = $2 WHERE account_id = $1', [accountId, failed]);
      return { kind: 'wrong', left: MAX_WRONG_CODES - failed };
    }
    await remove();
    const [, verified]: [unknown[], number] = await manager.query(
      'UPDATE account_settings SET email_verified_at = now() WHERE account_id = $1 AND email = $2',
      [accountId, pending.email],
    );
    return verified > 0 ? { kind: 'verified' } : { kind: 'address-changed' };
  }
}

export function verificationMail(to: string, code: string): OutgoingMail {
  return {
    to,
    code,
    subject: `Your verification code: ${code}`,
    text: [
      `Your code to verify this address: ${code}`,
      '',
      `It works once, within ${CODE_TTL_MINUTES} minutes. If you did not ask for it, ignore`,
      'this message: the address stays unverified without the code.',
      '',
    ].join('\n'),
  };
}

/** What an SMTP failure may tell the log: codes, never the message, the address or the server's credentials. */
function smtpErrorFields(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { error: typeof error };
  const { code, command, responseCode } = error as Error & { code?: string; command?: string; responseCode?: number };
  return { error: error.name, smtpCode: code, command, responseCode };
}
