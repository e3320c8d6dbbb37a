import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsOptional } from 'class-validator';
import { CODE_PATTERN, CODE_TTL_MINUTES, MAX_WRONG_CODES } from '../verification-codes';

export class V1AccountVerifyEmailRequestBody {
  @ApiProperty({
    example: '123456',
    minLength: 6,
    maxLength: 6,
    pattern: CODE_PATTERN.source,
    description:
      `The code the message of account.sendEmailVerification carried: six digits, good for ${CODE_TTL_MINUTES} minutes and once; ` +
      `${MAX_WRONG_CODES} wrong codes void it.`,
  })
  code: string;
}

export class V1AccountSubscribeEmailRequestBody {
  @ApiPropertyOptional({
    type: 'string',
    nullable: true,
    format: 'email',
    maxLength: 254,
    example: 'steamsets@example.com',
    description:
      'For the landing page, where no one is signed in. A signed-in account is subscribed at its own address ' +
      '(`account.updateSettings` sets it); when given here it must be that address (any case), or the answer is a 422 and nothing changes.',
  })
  // The one rule the document cannot state (its schema pass checks the rest): an address, when one is given.
  @IsOptional()
  @IsEmail({}, { message: 'email must be an e-mail address' })
  email?: string | null;

  @ApiProperty({ example: true, description: 'Whether the account wants the newsletter.' })
  subscribed: boolean;
}
