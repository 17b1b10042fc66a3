import { maskSecretUrl } from '@almanac/shared';
import { CalendarIntegration } from '../domain/calendar-integration';
import { CalendarIntegrationResponse } from './dto/calendar-integration.dto';

export function toIntegrationResponse(entity: CalendarIntegration): CalendarIntegrationResponse {
  return {
    id: entity.id,
    organization_id: entity.organizationId,
    provider: entity.provider,
    url: maskSecretUrl(entity.url),
    schedule_id: entity.scheduleId,
    name: entity.name,
    created_at: entity.createdAt.toISOString(),
    updated_at: entity.updatedAt.toISOString(),
    last_synced_at: entity.lastSyncedAt?.toISOString() ?? null,
  };
}
