import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PageQuery } from '@almanac/shared';
import { IsDefined, IsEmail, IsIn, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { EMAIL_MAX_LENGTH, REGISTRATION_NAME_MAX_LENGTH, REGISTRATION_STATUSES, RegistrationStatus } from '../../domain/registration';

export class CreateRegistrationDto {
  @ApiProperty({ example: 'Ada Lovelace', minLength: 1, maxLength: REGISTRATION_NAME_MAX_LENGTH })
  @IsDefined({ message: 'is required' })
  @IsString()
  @MinLength(1)
  @MaxLength(REGISTRATION_NAME_MAX_LENGTH)
  @Matches(/\S/, { message: 'must not be blank' })
  readonly name!: string;

  @ApiProperty({ example: 'ada@example.com', format: 'email', maxLength: EMAIL_MAX_LENGTH, description: 'One active or waiting registration per e-mail (case-insensitive)' })
  @IsDefined({ message: 'is required' })
  @IsString()
  @MaxLength(EMAIL_MAX_LENGTH)
  @IsEmail({}, { message: 'must be an e-mail address' })
  readonly email!: string;
}

export class ListRegistrationsQuery extends PageQuery {
  @ApiPropertyOptional({ enum: REGISTRATION_STATUSES, enumName: 'RegistrationStatus' })
  @IsOptional()
  @IsIn(REGISTRATION_STATUSES, { message: `must be one of ${REGISTRATION_STATUSES.join(', ')}` })
  readonly status?: RegistrationStatus;
}

export class RegistrationResponse {
  @ApiProperty({ format: 'uuid' }) readonly id!: string;
  @ApiProperty({ format: 'uuid' }) readonly event_id!: string;
  @ApiProperty({ example: 'Ada Lovelace' }) readonly name!: string;
  @ApiProperty({ example: 'ada@example.com' }) readonly email!: string;
  @ApiProperty({ enum: REGISTRATION_STATUSES, enumName: 'RegistrationStatus' }) readonly status!: RegistrationStatus;
  @ApiProperty({ format: 'date-time' }) readonly created_at!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) readonly cancelled_at!: string | null;
  @ApiProperty({ type: 'integer', nullable: true, minimum: 1, example: null, description: '1-based place on the waiting list while `waitlisted`; null otherwise' })
  readonly position!: number | null;
}
