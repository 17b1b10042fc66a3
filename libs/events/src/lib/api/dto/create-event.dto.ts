import {
  CostField,
  DescriptionField,
  LocationField,
  SiteIdField,
  SlotsField,
  WaitlistEnabledField,
  StartDateField,
  StatusField,
  TimeOfDayField,
  TimezoneField,
  TitleField,
} from './event-fields';
import { EventStatus } from '../../domain/event-status';
import { ApiBodyRules } from '@almanac/shared';

// An end time needs a start time (event-timing.ts); on update the stored start time counts too.
@ApiBodyRules({
  if: { required: ['end_time'], properties: { end_time: { type: 'string' } } },
  then: { required: ['start_time'], properties: { start_time: { type: 'string' } } },
})
export class CreateEventDto {
  @TitleField('create') readonly title!: string;
  @StartDateField('create') readonly start_date!: string;
  @DescriptionField() readonly description?: string | null;
  @TimeOfDayField('HH:MM, local time in the event\'s time zone; absent means the whole day') readonly start_time?: string | null;
  @TimeOfDayField('HH:MM, after start_time (which it needs); absent means until the end of the day') readonly end_time?: string | null;
  @TimezoneField() readonly timezone?: string;
  @LocationField() readonly location?: string | null;
  @CostField() readonly cost?: number;
  @SlotsField() readonly slots?: number | null;
  @WaitlistEnabledField() readonly waitlist_enabled?: boolean;
  @StatusField('create') readonly status?: EventStatus;
  @SiteIdField() readonly site_id?: string | null;
}
