import { Module } from '@nestjs/common';
import { AuthModule } from '../auth.module';
import { StreamTicketService } from './stream-ticket.service';
import { StreamTicketsController } from './stream-tickets.controller';

/** `auth.createStreamTicket` and the redemption the credential guard asks for on streams (API process only). */
@Module({
  imports: [AuthModule],
  controllers: [StreamTicketsController],
  providers: [StreamTicketService],
  exports: [StreamTicketService],
})
export class StreamTicketsModule {}
