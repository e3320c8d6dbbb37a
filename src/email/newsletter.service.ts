import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { notFound, unprocessable } from '../common/problem/problem.exception';
import { V1AccountSubscribeEmailRequestBody } from './dto/email.dto';

/**
 * account.subscribeEmail: the newsletter flag of the account's settings. The newsletter goes to the account's own
 * address: an `email` in the request (the landing page's field) must be that address, so a signed-in user cannot
 * subscribe someone else's.
 */
@Injectable()
export class NewsletterService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async subscribe(accountId: number, request: V1AccountSubscribeEmailRequestBody): Promise<void> {
    const email = request.email ?? null;
    const [, changed]: [unknown[], number] = await this.dataSource.query(
      'UPDATE account_settings SET subscribed = $2 WHERE account_id = $1 AND ($3::text IS NULL OR lower(email) = lower($3))',
      [accountId, request.subscribed, email],
    );
    if (changed > 0) return;
    if (email === null) throw notFound(`Account ${accountId} has no settings.`);
    throw unprocessable('The newsletter goes to the account’s own address; change it with account.updateSettings.', [
      { location: 'body.email', message: 'is not the address of this account' },
    ]);
  }
}
