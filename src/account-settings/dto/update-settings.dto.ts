import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, ValidateIf } from 'class-validator';
import { VANITY_MAX_LENGTH, VANITY_MIN_LENGTH } from '../../account-records/dto/account-search.dto';

/** A vanity to set, or '' for none (what account.getSettings shows without one): VanitySearch's rules otherwise. */
export const VANITY_OR_NONE = new RegExp(`^([a-zA-Z0-9]{${VANITY_MIN_LENGTH},${VANITY_MAX_LENGTH}})?$`);

/** A language tag: an ISO 639-1 code, optionally with an ISO 3166-1 region (`en`, `pt-BR`); both must be known codes. */
export const LANGUAGE_TAG = /^[a-z]{2}(-[A-Z]{2})?$/;

/** RFC 5321's longest forward path, less its brackets. */
export const EMAIL_MAX_LENGTH = 254;

const VANITY_RULES =
  `${VANITY_MIN_LENGTH}–${VANITY_MAX_LENGTH} ASCII letters and digits, the rules of a \`VanitySearch\` value; unique ` +
  'without regard to case (409 when another account has it) and stored lower-case. ';

export class V1AccountUpdateSettingsRequestBody {
  @ApiProperty({ example: true, description: 'Whether the account is hidden from the boards and every listing that ranks accounts.' })
  hidden: boolean;

  @ApiProperty({
    minLength: 2,
    maxLength: 5,
    pattern: LANGUAGE_TAG.source,
    example: 'en',
    description:
      'The language of the web app: an ISO 639-1 code, optionally with an ISO 3166-1 region (`pt-BR`); an unknown code is a 422.',
  })
  language: string;

  @ApiProperty({
    type: 'string',
    nullable: true,
    maxLength: VANITY_MAX_LENGTH,
    pattern: VANITY_OR_NONE.source,
    example: 'flo',
    description: `The site vanity: ${VANITY_RULES}\`null\` or \`""\` removes it.`,
  })
  vanity: string | null;

  @ApiPropertyOptional({
    type: 'string',
    nullable: true,
    maxLength: EMAIL_MAX_LENGTH,
    example: 'steamsets@example.com',
    description:
      'The e-mail address; `null` or `""` removes it, left out keeps it. A changed address is no longer verified (`emailVerifiedAt` becomes null).',
  })
  // The one rule the document cannot state (its schema pass checks the rest): an address, when one is given.
  @ValidateIf((_body, value) => typeof value === 'string' && value !== '')
  @IsEmail({ allow_display_name: false, allow_ip_domain: false, require_tld: true }, { message: 'email must be an e-mail address' })
  email?: string | null;

  @ApiPropertyOptional({
    type: 'string',
    nullable: true,
    minLength: 2,
    maxLength: 64,
    example: 'Germany',
    description:
      "A country to show instead of the platform's: its English name or ISO 3166-1 alpha-2 code (an unknown one is a 422); " +
      "`null` clears it, left out keeps it. The account moves to that country's and region's boards (without a state or " +
      'city) within seconds, and stays there through refreshes.',
  })
  countryOverride?: string | null;
}

export class V1AccountUpdateVanityRequestBody {
  @ApiPropertyOptional({
    type: 'string',
    nullable: true,
    maxLength: VANITY_MAX_LENGTH,
    pattern: VANITY_OR_NONE.source,
    example: 'flo',
    description: `The site vanity: ${VANITY_RULES}\`null\`, \`""\` or left out removes it.`,
  })
  vanity?: string | null;
}

/** The roles a user may show as their `chosenRole` (the reference's donation roles), when they hold them. */
export const CHOOSABLE_ROLES = ['amber', 'amethyst', 'emerald', 'sapphire', 'ruby', 'diamond', 'astral', 'nebula'] as const;

export class V1AccountUpdateRoleRequestBody {
  @ApiPropertyOptional({
    enum: CHOOSABLE_ROLES,
    description: 'The role the account should show, one it holds; left out, the default (its highest-rated role).',
  })
  role?: (typeof CHOOSABLE_ROLES)[number];
}
