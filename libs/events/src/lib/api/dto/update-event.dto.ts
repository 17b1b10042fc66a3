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

/** Every create field, all optional; null clears a nullable field. At least one field is required. */
export class UpdateEventDto {
  @TitleField('update') readonly title?: string;
  @StartDateField('update') readonly start_date?: string;
  @DescriptionField() readonly description?: string | null;
  @TimeOfDayField('HH:MM; null clears it (end_time must be cleared with it)') readonly start_time?: string | null;
  @TimeOfDayField('HH:MM, after start_time; null clears it') readonly end_time?: string | null;
  @TimezoneField() readonly timezone?: string;
  @LocationField() readonly location?: string | null;
  @CostField() readonly cost?: number;
  @SlotsField() readonly slots?: number | null;
  @WaitlistEnabledField() readonly waitlist_enabled?: boolean;
  @StatusField('update') readonly status?: EventStatus;
  @SiteIdField() readonly site_id?: string | null;
}
