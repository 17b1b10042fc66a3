import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { AppConfig, DatabaseServer } from '@almanac/shared';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { OrganizationRepository } from '../infrastructure/organization.repository';
import { IdentityService } from './identity.service';

export const DEMO_ADMIN_EMAIL = 'admin@demo.almanac.local';

/** Where the one-time demo credentials are printed; stdout unless a test captures them. */
export abstract class DemoOutput {
  abstract write(text: string): void;
}

export class StdoutDemoOutput extends DemoOutput {
  write(text: string): void {
    process.stdout.write(text);
  }
}

/**
 * First start on an empty embedded database: creates the "Demo" organization, an admin and an API
 * key, and prints them once with a ready curl line. Never with DATABASE_URL, never twice (once the
 * database holds an organization there is nothing to do).
 */
@Injectable()
export class DemoSeeder implements OnApplicationBootstrap {
  constructor(
    private readonly config: AppConfig,
    private readonly server: DatabaseServer,
    private readonly identity: IdentityService,
    private readonly output: DemoOutput,
    private readonly organizations: OrganizationRepository,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // The server is embedded exactly when DATABASE_URL is unset (DatabaseServer.resolveUrl).
    if (!this.config.seedDemo || !this.server.embedded) return;
    await this.seedIfEmpty();
  }

  async seedIfEmpty(): Promise<void> {
    if (await this.organizations.any(this.dataSource.manager)) return;
    const org = await this.identity.createOrganization('Demo');
    const password = randomBytes(12).toString('base64url');
    const admin = await this.identity.createUser({ organizationId: org.id, email: DEMO_ADMIN_EMAIL, name: 'Demo Admin', password, role: 'admin' });
    const key = await this.identity.createApiKey({ organizationId: org.id, name: 'Demo key', userId: admin.id });
    const url = this.config.appUrl;
    this.output.write(
      [
        '',
        'Created a demo organization on this new database (shown once, keep it):',
        `  organization  Demo (${org.id})`,
        `  admin login   ${DEMO_ADMIN_EMAIL} / ${password}   (POST ${url}/api/auth/login)`,
        `  API key       ${key.key}   (all scopes)`,
        '',
        'Try it:',
        `  curl -H "Authorization: Bearer ${key.key}" ${url}/api/v1/api-keys/current`,
        '',
        '',
      ].join('\n'),
    );
  }
}
