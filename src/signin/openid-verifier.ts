import { Inject, Injectable } from '@nestjs/common';
import { accountIdOf } from '../account-records/account.enums';
import { serviceUnavailable, unauthorized } from '../common/problem/problem.exception';
import { JsonLogger } from '../common/logging/json-logger';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { V1AccountLoginRequest } from './dto/login.dto';
import { NONCE_MAX_AGE_SECONDS, NONCE_MAX_SKEW_SECONDS, NonceStore, nonceTime } from './nonce-store';

const OPENID_NS = 'http://specs.openid.net/auth/2.0';
/** The platform's claimed identifiers; the number is the account's 64-bit id. */
const CLAIMED_ID = /^https:\/\/steamcommunity\.com\/openid\/id\/(\d{17})$/;
/** Fields the signature must cover, or an attacker could change them on a genuine assertion. */
const MUST_BE_SIGNED = ['op_endpoint', 'claimed_id', 'identity', 'return_to', 'response_nonce', 'assoc_handle'];

const refused = (why: string) => unauthorized(`The sign-in assertion was refused: ${why}.`);

/**
 * The relying party's half of OpenID 2.0 (stateless mode: no association, so the provider verifies). The checks
 * that need nobody else come first (shape, endpoint, origin, identifier, nonce age), then the provider is asked
 * (`check_authentication`, a POST to the configured endpoint, never to one named by the assertion), and only an
 * assertion the provider confirms spends its nonce: a forged one cannot burn a genuine nonce, and of two uses of
 * one genuine assertion exactly one wins.
 */
@Injectable()
export class OpenIdVerifier {
  private readonly logger = new JsonLogger('OpenIdVerifier');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly nonces: NonceStore,
  ) {}

  /** The account id the assertion proves, or a 401 problem (503 when the provider cannot be asked). */
  async verify(assertion: V1AccountLoginRequest, now = Date.now()): Promise<number> {
    const endpoint = this.config.signIn.providerEndpoint;
    if (assertion.openid_ns !== OPENID_NS) throw refused('not an OpenID 2.0 message');
    if (assertion.openid_mode !== 'id_res') throw refused('not a positive assertion (openid.mode is not id_res)');
    if (assertion.openid_op_endpoint !== endpoint) throw refused('it names another provider');
    if (originOf(assertion.openid_return_to) !== this.config.signIn.webAppOrigin)
      throw refused('openid.return_to is not on the web app’s origin');
    const match = CLAIMED_ID.exec(assertion.openid_claimed_id);
    const accountId = match ? accountIdOf(match[1]) : null;
    if (accountId === null || assertion.openid_identity !== assertion.openid_claimed_id) throw refused('it names no platform account');
    const signed = assertion.openid_signed.split(',');
    if (!MUST_BE_SIGNED.every((field) => signed.includes(field))) throw refused('the signature does not cover the assertion');
    const stamped = nonceTime(assertion.openid_response_nonce);
    if (stamped === null || now - stamped > NONCE_MAX_AGE_SECONDS * 1000 || stamped - now > NONCE_MAX_SKEW_SECONDS * 1000) {
      throw refused('it is stale (its nonce is too old or malformed)');
    }
    if (!(await this.confirmedByProvider(assertion, endpoint))) throw refused('the platform did not confirm it');
    if (!(await this.nonces.consume(endpoint, assertion.openid_response_nonce))) throw refused('it was already used');
    return accountId;
  }

  /** `check_authentication`: the same fields, mode changed, form-encoded; the answer is key-value form. */
  private async confirmedByProvider(assertion: V1AccountLoginRequest, endpoint: string): Promise<boolean> {
    const form = new URLSearchParams();
    for (const [field, value] of Object.entries(assertion)) {
      if (field.startsWith('openid_') && typeof value === 'string') form.set(`openid.${field.slice('openid_'.length)}`, value);
    }
    form.set('openid.mode', 'check_authentication');
    let text: string;
    try {
      const response = await fetch(endpoint, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'text/plain' },
        body: form.toString(),
        redirect: 'error',
        signal: AbortSignal.timeout(this.config.platform.timeoutMs),
      });
      text = (await response.text()).slice(0, 4096);
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
    } catch (error) {
      this.logger.warn({ msg: 'the platform could not verify a sign-in', error: String(error) });
      throw serviceUnavailable('The platform could not be asked to verify the sign-in; try again shortly.', 5);
    }
    return /^is_valid:true$/m.test(text);
  }
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}
