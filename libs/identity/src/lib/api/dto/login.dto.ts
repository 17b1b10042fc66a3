import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';

export class LoginDto {
  @ApiProperty({ example: 'admin@example.com', maxLength: 320 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(320)
  readonly email!: string;

  @ApiProperty({ example: 'correct horse battery staple', maxLength: 1024, format: 'password' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(1024)
  readonly password!: string;
}
