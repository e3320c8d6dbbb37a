/**
 * # E-mail
 *
 * `account.sendEmailVerification`, `account.verifyEmail` and `account.subscribeEmail` (user session only), on the
 * address and flags of `account_settings` (the account records' table; account.updateSettings sets the address and
 * clears `emailVerifiedAt` when it changes). A code is six random digits, sent by the `Mailer`: nodemailer over the
 * SMTP server of `SMTP_URL`, or, without one, the development transport, which writes one log line naming the
 * recipient and the code (the only place a code is logged). The code is stored as a SHA-256 bound to the account and
 * the address (`email_verification_codes`, one row per account), lasts 15 minutes, is deleted when used and voided by
 * five wrong tries (counted under a row lock); an account is sent at most five codes an hour (ActionThrottle). A send
 * waits for the mail server at most 10 s; a failed send is a 503 and its code is deleted.
 */
import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { EmailController } from './email.controller';
import { EmailVerificationService } from './email-verification.service';
import { createMailer, Mailer } from './mailer';
import { NewsletterService } from './newsletter.service';

@Module({
  imports: [AuthModule],
  controllers: [EmailController],
  providers: [
    { provide: Mailer, inject: [APP_CONFIG], useFactory: (config: AppConfig) => createMailer(config) },
    EmailVerificationService,
    NewsletterService,
  ],
})
export class EmailModule {}
