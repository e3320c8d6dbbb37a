import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { WireOperation } from '../common/wire/wire-operation.decorator';
import { DonationsService } from './donations.service';
import { V1DonateGoal } from './dto/donate-goal.dto';

@ApiTags('donate')
@Controller('v1')
export class DonationsController {
  constructor(private readonly donations: DonationsService) {}

  @WireOperation({
    operationId: 'donate.getGoal',
    summary: 'Progress toward this month’s donation goal',
    description: 'Public. The goal is `DONATION_GOAL_CENTS`; donations are recorded by operators (`npm run cli -- donation record`).',
    auth: 'public',
    response: V1DonateGoal,
    errors: [500],
    noBody: true,
  })
  getGoal(): Promise<V1DonateGoal> {
    return this.donations.goal();
  }
}
