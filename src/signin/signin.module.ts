/**
 * # Sign-in with the platform
 *
 * `account.login` turns the platform's OpenID 2.0 positive assertion into a user session, and `account.logout` ends
 * one. The platform is the identity provider (the simulator plays it locally, `platform/simulator/openid`); this
 * service is a stateless relying party: it checks the assertion's origin, freshness and identifier, has the provider
 * confirm the signature, and spends the nonce in Redis so an assertion signs in once (see openid-verifier.ts).
 * It sits above accounts and refresh (creating the account, queueing its first refresh); nothing imports it.
 */
import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { AuthModule } from '../auth/auth.module';
import { RefreshModule } from '../refresh/refresh.module';
import { NonceStore } from './nonce-store';
import { OpenIdVerifier } from './openid-verifier';
import { SignInController } from './signin.controller';
import { SignInService } from './signin.service';

@Module({
  imports: [AuthModule, AccountsModule, RefreshModule],
  controllers: [SignInController],
  providers: [SignInService, OpenIdVerifier, NonceStore],
})
export class SignInModule {}
