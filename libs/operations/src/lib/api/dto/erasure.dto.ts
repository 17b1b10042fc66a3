import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsEmail, IsString, MaxLength } from 'class-validator';

export class ErasureDto {
  @ApiProperty({ example: 'ada@example.com', format: 'email', maxLength: 254, description: 'The address whose person is erased (matched case-insensitively)' })
  @IsDefined({ message: 'is required' })
  @IsString()
  @MaxLength(254)
  @IsEmail({}, { message: 'must be an e-mail address' })
  readonly email!: string;
}

export class ErasureResponse {
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Bookings anonymised now (0 when the address had none left)' })
  readonly bookings!: number;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Registrations anonymised now' })
  readonly registrations!: number;
  @ApiProperty({ format: 'date-time' }) readonly at!: string;
}
