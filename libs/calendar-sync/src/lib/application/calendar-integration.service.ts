import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { ExternalBookingsService } from '@almanac/scheduling';
import { Clock, ForbiddenError, InvalidReferenceError, newId, NotFoundError, returnedRows } from '@almanac/shared';
import { DataSource } from 'typeorm';
import { CalendarIntegrationOrmEntity } from '../infrastructure/calendar-integration.orm-entity';

export interface IntegrationInput {
  provider: 'ics';
  url: string;
  scheduleId: string;
  name?: string;
}

/** The organizations an admin may act for: only their own; anything else is 403 (no existence oracle). */
export function assertOwnOrganization(adminOrganizationId: string, organizationId: string): void {
  if (adminOrganizationId !== organizationId) {
    throw new ForbiddenError('You may only manage your own organization.');
  }
}

@Injectable()
export class CalendarIntegrationService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly bookings: ExternalBookingsService,
    private readonly clock: Clock,
  ) {}

  async get(organizationId: string): Promise<CalendarIntegrationOrmEntity | null> {
    return this.dataSource.getRepository(CalendarIntegrationOrmEntity).findOneBy({ organizationId });
  }

  /** Creates or replaces the organization's integration and returns it (one statement). */
  async put(organizationId: string, input: IntegrationInput): Promise<CalendarIntegrationOrmEntity> {
    if (!(await this.bookings.scheduleExists(organizationId, input.scheduleId))) {
      throw new InvalidReferenceError('schedule_id');
    }
    const rows: CalendarIntegrationOrmEntity[] = await this.dataSource.query(
      `INSERT INTO calendar_integrations (id, organization_id, provider, url, schedule_id, name, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $7)
       ON CONFLICT (organization_id) DO UPDATE
         SET provider = EXCLUDED.provider, url = EXCLUDED.url, schedule_id = EXCLUDED.schedule_id,
             name = EXCLUDED.name, updated_at = EXCLUDED.updated_at
       RETURNING id, organization_id AS "organizationId", provider, url, schedule_id AS "scheduleId", name,
                 created_at AS "createdAt", updated_at AS "updatedAt", last_synced_at AS "lastSyncedAt"`,
      [newId(), organizationId, input.provider, input.url, input.scheduleId, input.name ?? 'External calendar', this.clock.now()],
    );
    return rows[0]!;
  }

  async remove(organizationId: string): Promise<string> {
    const rows = returnedRows<{ id: string }>(
      await this.dataSource.query('DELETE FROM calendar_integrations WHERE organization_id = $1 RETURNING id', [organizationId]),
    );
    if (rows.length === 0) throw new NotFoundError('Calendar integration');
    return rows[0]!.id;
  }
}
