import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'organizations' })
export class OrganizationOrmEntity {
  @PrimaryColumn('uuid') id!: string;
  @Column('text') name!: string;
  @Column('timestamptz', { name: 'created_at' }) createdAt!: Date;
}

@Entity({ name: 'users' })
export class UserOrmEntity {
  @PrimaryColumn('uuid') id!: string;
  @Column('uuid', { name: 'organization_id' }) organizationId!: string;
  @Column('text') email!: string;
  @Column('text') name!: string;
  @Column('text') role!: 'admin' | 'author';
  @Column('text', { name: 'password_hash', nullable: true }) passwordHash!: string | null;
  @Column('timestamptz', { name: 'created_at' }) createdAt!: Date;
}

@Entity({ name: 'api_keys' })
export class ApiKeyOrmEntity {
  @PrimaryColumn('uuid') id!: string;
  @Column('uuid', { name: 'organization_id' }) organizationId!: string;
  @Column('uuid', { name: 'user_id', nullable: true }) userId!: string | null;
  @Column('text') name!: string;
  @Column('text') prefix!: string;
  @Column('text', { name: 'key_hash' }) keyHash!: string;
  @Column('text', { array: true }) scopes!: string[];
  @Column('timestamptz', { name: 'created_at' }) createdAt!: Date;
  @Column('timestamptz', { name: 'last_used_at', nullable: true }) lastUsedAt!: Date | null;
  @Column('timestamptz', { name: 'expires_at', nullable: true }) expiresAt!: Date | null;
  @Column('timestamptz', { name: 'revoked_at', nullable: true }) revokedAt!: Date | null;
}
