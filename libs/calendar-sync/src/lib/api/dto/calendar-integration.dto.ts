import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsHttpUrl } from '@almanac/shared';
import { IsIn, IsOptional, IsString, IsUUID, MaxLength, MinLength } from 'class-validator';

export class PutCalendarIntegrationDto {
  @ApiProperty({ enum: ['ics'], example: 'ics', description: 'iCalendar (RFC 5545) feed over http(s)' })
  @IsIn(['ics'])
  readonly provider!: 'ics';

  @ApiProperty({
    example: 'https://calendar.google.com/calendar/ical/team%40example.com/private-0123abcd/basic.ics',
    description: "The feed address (Google's secret iCal address, an Outlook or iCloud published calendar, a CalDAV export)",
  })
  @IsString()
  @IsHttpUrl()
  readonly url!: string;

  @ApiProperty({ example: '0193a3c2-7d1e-7c4e-9a57-2f5b8e1c0d9a', description: 'Schedule that receives the imported bookings' })
  @IsUUID()
  readonly schedule_id!: string;

  @ApiPropertyOptional({ example: 'Clinic calendar', description: 'Shown as attendee when an event names nobody' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(300)
  readonly name?: string;
}

export class CalendarIntegrationResponse {
  @ApiProperty({ format: 'uuid' }) readonly id!: string;
  @ApiProperty({ format: 'uuid' }) readonly organization_id!: string;
  @ApiProperty({ enum: ['ics'] }) readonly provider!: string;
  @ApiProperty({ example: 'https://calendar.google.com/calendar…', description: 'The feed URL, masked: it is a secret' })
  readonly url!: string;
  @ApiProperty({ format: 'uuid' }) readonly schedule_id!: string;
  @ApiProperty() readonly name!: string;
  @ApiProperty({ format: 'date-time', example: '2026-11-21T10:00:00.000Z' }) readonly created_at!: string;
  @ApiProperty({ format: 'date-time', example: '2026-11-21T10:00:00.000Z' }) readonly updated_at!: string;
  @ApiProperty({ format: 'date-time', example: '2026-11-21T10:05:00.000Z', nullable: true, type: String }) readonly last_synced_at!: string | null;
}

export class DeletedIntegrationResponse {
  @ApiProperty({ format: 'uuid' }) readonly id!: string;
  @ApiProperty({ example: true, enum: [true] }) readonly deleted!: boolean;
}
