import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'calendar_integrations' })
export class CalendarIntegrationOrmEntity {
  @PrimaryColumn('uuid') id!: string;
  @Column('uuid', { name: 'organization_id' }) organizationId!: string;
  @Column('text') provider!: string;
  @Column('text') url!: string;
  @Column('uuid', { name: 'schedule_id' }) scheduleId!: string;
  @Column('text') name!: string;
  @Column('timestamptz', { name: 'created_at' }) createdAt!: Date;
  @Column('timestamptz', { name: 'updated_at' }) updatedAt!: Date;
  @Column('timestamptz', { name: 'last_synced_at', nullable: true }) lastSyncedAt!: Date | null;
}
