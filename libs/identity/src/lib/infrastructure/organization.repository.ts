import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Organization } from '../domain/organization';

/** Organizations in PostgreSQL. */
@Injectable()
export class OrganizationRepository {
  async insert(em: EntityManager, organization: Organization, createdAt: Date): Promise<void> {
    await em.query('INSERT INTO organizations (id, name, created_at) VALUES ($1, $2, $3)', [organization.id, organization.name, createdAt]);
  }

  /** One organization with the time it was created; null when there is none with this id. */
  async findById(em: EntityManager, id: string): Promise<(Organization & { createdAt: Date }) | null> {
    const rows: Array<{ id: string; name: string; created_at: Date }> = await em.query('SELECT id, name, created_at FROM organizations WHERE id = $1', [id]);
    return rows[0] ? { id: rows[0].id, name: rows[0].name, createdAt: rows[0].created_at } : null;
  }

  /** Whether the database holds any organization at all (the demo seed runs only on an empty one). */
  async any(em: EntityManager): Promise<boolean> {
    const rows: unknown[] = await em.query('SELECT 1 FROM organizations LIMIT 1');
    return rows.length > 0;
  }
}
