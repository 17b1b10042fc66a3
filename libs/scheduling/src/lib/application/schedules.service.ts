import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  assertChanges,
  Clock,
  newId,
  NotFoundError,
  Page,
  Precondition,
  writeUnderPrecondition,
} from '@almanac/shared';
import { DataSource } from 'typeorm';
import type { DateOverride, WeeklyRule } from '../domain/availability';
import { DEFAULT_SCHEDULE_TIMEZONE, Schedule } from '../domain/schedule';
import { ScheduleInUseError } from '../domain/scheduling-errors';
import { ScheduleRepository } from '../infrastructure/schedule.repository';

export interface CreateScheduleCommand {
  name: string;
  timezone?: string;
  availability?: readonly WeeklyRule[] | null;
  dateOverrides?: readonly DateOverride[];
}

export interface UpdateScheduleCommand {
  name?: string;
  timezone?: string;
  availability?: readonly WeeklyRule[] | null;
  dateOverrides?: readonly DateOverride[];
}

@Injectable()
export class SchedulesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly schedules: ScheduleRepository,
    private readonly clock: Clock,
  ) {}

  async create(organizationId: string, command: CreateScheduleCommand): Promise<Schedule> {
    const now = this.clock.now();
    return this.schedules.insert(this.dataSource.manager, {
      id: newId(),
      organizationId,
      name: command.name,
      timezone: command.timezone ?? DEFAULT_SCHEDULE_TIMEZONE,
      availability: command.availability ?? null,
      dateOverrides: command.dateOverrides ?? [],
      createdAt: now,
      updatedAt: now,
    });
  }

  async list(organizationId: string, page: Page): Promise<{ items: Schedule[]; total: number }> {
    return this.schedules.list(this.dataSource.manager, organizationId, page);
  }

  async get(organizationId: string, id: string): Promise<Schedule> {
    const schedule = await this.schedules.findById(this.dataSource.manager, organizationId, id);
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
      this.dataSource,
      precondition,
      { table: 'schedules', organizationId, id },
      (em) => this.schedules.findById(em, organizationId, id),
      (em) => this.schedules.update(em, organizationId, id, { ...command, updatedAt: this.clock.now() }),
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
    return this.dataSource.transaction(async (em) => {
      const schedule = await this.schedules.findById(em, organizationId, id, 'update');
      if (!schedule) throw new NotFoundError('Schedule');
      precondition.assert(schedule);
      if (await this.schedules.hasActiveBookings(em, organizationId, id)) throw new ScheduleInUseError();
      await this.schedules.delete(em, organizationId, id);
      return { id };
    });
  }
}
