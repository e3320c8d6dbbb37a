import { Body, Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../common/auth/auth.decorator';
import { Principal } from '../common/auth/principal';
import { WireOperation } from '../common/wire/wire-operation.decorator';
import { V1AccountSubscribeEmailRequestBody, V1AccountVerifyEmailRequestBody } from './dto/email.dto';
import { EmailVerificationService } from './email-verification.service';
import { NewsletterService } from './newsletter.service';
import { CODE_TTL_MINUTES, MAX_WRONG_CODES, SENDS_PER_HOUR } from './verification-codes';

const DELIVERY =
  'The message goes through the SMTP server of `SMTP_URL`; where that is not set (local development) nothing is sent and ' +
  'the API writes one log line naming the address and the code instead.';

@ApiTags('account')
@Controller('v1')
export class EmailController {
  constructor(
    private readonly verification: EmailVerificationService,
    private readonly newsletter: NewsletterService,
  ) {}

  @WireOperation({
    operationId: 'account.sendEmailVerification',
    summary: 'Send a verification code to the account’s e-mail address (user session only)',
    description:
      `Sends a six-digit code to the address of the account's settings, good for ${CODE_TTL_MINUTES} minutes and once; a new ` +
      `code replaces the previous one. ${DELIVERY} 404: the account has no address yet (\`account.updateSettings\` sets it); ` +
      `422: it is already verified; 429 past ${SENDS_PER_HOUR} codes per account in any rolling hour (Retry-After); 503 ` +
      'when the mail server does not take the message within 10 s (Retry-After; the code is not left usable).',
    auth: 'session',
    responseDescription: 'Sent; no body.',
    errors: [400, 401, 404, 422, 429, 500],
    noBody: true,
  })
  async sendEmailVerification(@CurrentPrincipal() principal: Principal): Promise<void> {
    await this.verification.send(principal.accountId);
  }

  @WireOperation({
    operationId: 'account.verifyEmail',
    summary: 'Verify the account’s e-mail address with the code sent to it (user session only)',
    description:
      'Sets `emailVerifiedAt` (account.getSettings) when the code is the one sent and the account still has the address it was ' +
      `sent to. 422 (\`body.code\`): a wrong code, with the tries left; the ${MAX_WRONG_CODES}th wrong one voids the code. 404: no ` +
      'code is pending: none was sent, or it was used, expired, voided, or the address changed since.',
    auth: 'session',
    responseDescription: 'Verified; no body.',
    errors: [400, 401, 404, 422, 429, 500],
  })
  async verifyEmail(@Body() body: V1AccountVerifyEmailRequestBody, @CurrentPrincipal() principal: Principal): Promise<void> {
    await this.verification.verify(principal.accountId, body.code);
  }

  @WireOperation({
    operationId: 'account.subscribeEmail',
    summary: 'Subscribe to or unsubscribe from the newsletter (user session only)',
    description:
      'Sets `subscribed` of the account’s settings (account.getSettings). The newsletter goes to the account’s own address, ' +
      'and only once it is verified; `email`, the landing page’s field, must be that address when given (422 otherwise).',
    auth: 'session',
    responseDescription: 'Saved; no body.',
    errors: [400, 401, 422, 429, 500],
  })
  async subscribeEmail(@Body() body: V1AccountSubscribeEmailRequestBody, @CurrentPrincipal() principal: Principal): Promise<void> {
    await this.newsletter.subscribe(principal.accountId, body);
  }
}
