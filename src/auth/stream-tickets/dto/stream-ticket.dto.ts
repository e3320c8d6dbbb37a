import { ApiProperty } from '@nestjs/swagger';
import { STREAM_OPERATIONS, type StreamOperation } from '../../../common/wire/wire-operation.decorator';

export class AuthCreateStreamTicketRequestBody {
  @ApiProperty({ enum: STREAM_OPERATIONS, example: 'account.subscribe', description: 'The one stream the ticket may open.' })
  stream: StreamOperation;
}

export class AuthCreateStreamTicketResponseBody {
  @ApiProperty({
    example: 'stk_Q2hhbmdlIG1lLCBJIGFtIGp1c3QgYW4gZXhhbXBsZSE',
    description: 'Opaque; send it as `?ticket=` when opening the stream. Usable once.',
  })
  ticket: string;

  @ApiProperty({ enum: STREAM_OPERATIONS, example: 'account.subscribe' })
  stream: StreamOperation;

  @ApiProperty({ format: 'date-time', description: 'The ticket is refused after this time (60 s after minting).' })
  expiresAt: string;
}
