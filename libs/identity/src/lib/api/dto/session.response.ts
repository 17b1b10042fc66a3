import { ApiProperty } from '@nestjs/swagger';
import { AdminSessionInfo } from '../../domain/admin-session';

export class SessionUserResponse {
  @ApiProperty({ format: 'uuid' })
  readonly id!: string;

  @ApiProperty({ example: 'admin@example.com' })
  readonly email!: string;

  @ApiProperty({ example: 'Ada Admin' })
  readonly name!: string;

  @ApiProperty({ format: 'uuid' })
  readonly organization_id!: string;

  @ApiProperty({ enum: ['admin', 'author'], example: 'admin' })
  readonly role!: 'admin' | 'author';
}

export class SessionResponse {
  @ApiProperty({ type: SessionUserResponse })
  readonly user!: SessionUserResponse;
}

export function toSessionResponse(session: AdminSessionInfo): SessionResponse {
  return {
    user: {
      id: session.userId,
      email: session.email,
      name: session.name,
      organization_id: session.organizationId,
      role: session.role,
    },
  };
}
