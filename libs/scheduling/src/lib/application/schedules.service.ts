import { Injectable } from '@nestjs/common';
import {
  assertChanges,
  Clock,
  ListTotal,
  newId,
  NotFoundError,
  Page,
  Precondition,
  Transactions,
  writeUnderPrecondition,
} from '@almanac/shared';
import { newSchedule, Schedule, ScheduleInput } from '../domain/schedule';
import { ScheduleInUseError } from '../domain/scheduling-errors';
import { ScheduleRepository } from '../infrastructure/schedule.repository';

export type CreateScheduleCommand = ScheduleInput;

export type UpdateScheduleCommand = Partial<ScheduleInput>;

@Injectable()
export class SchedulesService {
  constructor(
    private readonly transactions: Transactions,
    private readonly schedules: ScheduleRepository,
    private readonly clock: Clock,
  ) {}

  async create(organizationId: string, command: CreateScheduleCommand): Promise<Schedule> {
    return this.schedules.insert(newSchedule({ id: newId(), organizationId }, command, this.clock.now()));
  }

  async list(organizationId: string, page: Page): Promise<{ items: Schedule[]; total: ListTotal }> {
    return this.schedules.list(organizationId, page);
  }

  async get(organizationId: string, id: string): Promise<Schedule> {
    const schedule = await this.schedules.findById(organizationId, id);
    if (!schedule) throw new NotFoundError('Schedule');
    return schedule;
  }

  async update(
    organizationId: string,
    id: string,
    command: UpdateScheduleCommand,
    precondition = Precondition.none<Schedule>(),
  ): Promise<Schedule> {
    assertChanges(command);
    const updated = await writeUnderPrecondition(
      this.transactions,
      precondition,
      () => this.schedules.lockById(organizationId, id),
      () => this.schedules.update(organizationId, id, { ...command, updatedAt: this.clock.now() }),
    );
    if (!updated) throw new NotFoundError('Schedule');
    return updated;
  }

  /**
   * Refused while the schedule has PENDING or CONFIRMED bookings. The schedule row is locked first:
   * a booking being created meanwhile holds a KEY SHARE lock on it (its foreign-key check), so it is
   * either committed and seen by the check, or waits and then fails its foreign key.
   */
  async delete(
    organizationId: string,
    id: string,
    precondition = Precondition.none<Schedule>(),
  ): Promise<{ id: string }> {
    return this.transactions.run(async () => {
      const schedule = await this.schedules.lockById(organizationId, id);
      if (!schedule) throw new NotFoundError('Schedule');
      precondition.assert(schedule);
      if (await this.schedules.hasActiveBookings(organizationId, id)) throw new ScheduleInUseError();
      await this.schedules.delete(organizationId, id);
      return { id };
    });
  }
}
