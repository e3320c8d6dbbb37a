import { Inject, Injectable } from '@nestjs/common';
import Redis from 'ioredis';
import { redisKey, REDIS } from '../../common/redis/redis.module';
import type { StreamOperation } from '../../common/wire/wire-operation.decorator';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { ApiKeyService } from '../api-key.service';
import { Principal } from '../../common/auth/principal';
import { hashSecret, randomToken } from '../secrets';
import { SessionService } from '../session.service';

/** Long enough to mint a ticket and open the stream; short enough that a ticket seen in a URL is useless soon. */
export const STREAM_TICKET_TTL_SECONDS = 60;

const TICKET_PREFIX = 'stk_';
const TICKET_PATTERN = /^stk_[A-Za-z0-9_-]{43}$/;

interface StoredTicket {
  stream: StreamOperation;
  principal: Principal;
}

/**
 * Stream tickets: a browser `EventSource` cannot send `Authorization`, so a caller mints a ticket with its API
 * key or session and opens the stream with `?ticket=`. A ticket opens one named stream once, within
 * `STREAM_TICKET_TTL_SECONDS`, as the principal that minted it. Redis keeps only the ticket's hash (a dump of
 * Redis holds no usable ticket) and `GETDEL` redeems it atomically: of two opens with one ticket, one wins.
 */
@Injectable()
export class StreamTicketService {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly apiKeys: ApiKeyService,
    private readonly sessions: SessionService,
  ) {}

  async mint(principal: Principal, stream: StreamOperation): Promise<{ ticket: string; stream: StreamOperation; expiresAt: string }> {
    const ticket = `${TICKET_PREFIX}${randomToken(32)}`;
    const stored: StoredTicket = { stream, principal };
    await this.redis.set(this.key(ticket), JSON.stringify(stored), 'EX', STREAM_TICKET_TTL_SECONDS);
    return { ticket, stream, expiresAt: new Date(Date.now() + STREAM_TICKET_TTL_SECONDS * 1000).toISOString() };
  }

  /**
   * The principal a ticket opens `stream` as, and the ticket is spent; null when it is malformed, unknown,
   * expired, spent, for another stream (it is spent then too), or its key or session was revoked since.
   */
  async redeem(ticket: string, stream: StreamOperation): Promise<Principal | null> {
    if (!TICKET_PATTERN.test(ticket)) return null;
    const raw = await this.redis.getdel(this.key(ticket));
    if (!raw) return null;
    const stored = JSON.parse(raw) as StoredTicket;
    if (stored.stream !== stream) return null;
    return (await this.stillValid(stored.principal)) ? stored.principal : null;
  }

  private stillValid(principal: Principal): Promise<boolean> {
    return principal.kind === 'api-key' ? this.apiKeys.isActive(principal.keyId) : this.sessions.isActive(principal.sessionId);
  }

  private key(ticket: string): string {
    return redisKey(this.config, 'stream-ticket', hashSecret(ticket));
  }
}
