/**
 * # Connections: linked accounts of other services
 *
 * `account.createConnection`, `verifyConnection`, `updateConnection`, `reconnectConnection`, `deleteConnection`
 * (session only), listed by `account.getSettings` (all) and `account.getInfo` (verified, not hidden: a subquery of
 * the profile's one statement, accounts/profile-extras.ts, so the profile pays no extra round trip).
 *
 * - **OAuth** (discord, patreon, kick, reddit, twitch, youtube, x): the authorization-code flow. The web app sends
 *   the user to the provider and posts back the `code`; the service exchanges it (oauth/oauth-client.ts: the token
 *   endpoint with the client's id and secret and OAUTH_REDIRECT_URI, then the user-info endpoint read by the
 *   provider's own shape, oauth/oauth-providers.ts) and keeps the user's id, name and avatar. Tokens are dropped
 *   there: nothing stores or logs them. OAUTH_PROVIDERS configures clients and may replace endpoints; without a
 *   platform key and without it, the simulator plays every provider (`/oauth/<provider>/…`).
 * - **Domains** (domain/): a random code to publish as a TXT record or an HTTPS file; `verifyConnection` looks
 *   (DomainVerifier), connecting to public addresses only (common/net/public-address.ts, as webhooks do).
 * - **Limits** (connection-limits.ts): 10 per account, one per OAuth provider, under an advisory lock per account;
 *   an account of a provider is linked to one account here (409s); creates and reconnects per hour
 *   (CONNECTION_CREATES_PER_HOUR), domain checks per hour (429); unverified domains lapse after 7 days.
 */
import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { ConnectionsController } from './connections.controller';
import { ConnectionsService } from './connections.service';
import { DomainVerifier } from './domain/domain-verifier';

@Module({
  imports: [AuthModule],
  controllers: [ConnectionsController],
  providers: [ConnectionsService, DomainVerifier],
  exports: [ConnectionsService],
})
export class ConnectionsModule {}
