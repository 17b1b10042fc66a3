-- Almanac on Citus, distributed by organization_id (docs/contract/operations.md).
-- Run once on the coordinator after `npm run migrate`, in this order (referenced tables first).
-- schema_migrations stays a local table of the coordinator (migrations run there only), and so does
-- public_rate_limits (the per-client counters of /public/v1, written on every such request, read by
-- no join: a reference table would write every request on every node).

-- Reference tables: small, looked up without an organization (by e-mail, key hash, session token).
SELECT create_reference_table('organizations');
SELECT create_reference_table('users');
SELECT create_reference_table('api_keys');
SELECT create_reference_table('admin_sessions');
SELECT create_reference_table('login_failures');
SELECT create_reference_table('login_known_clients');

-- Distributed tables, all co-located with schedules, so that joins and foreign keys on
-- (organization_id, …) stay on one node.
-- The function in bookings' exclusion constraint (blocked time with buffers) must exist on every
-- worker before bookings is distributed: create_distributed_function propagates it.
SELECT create_distributed_function('booking_blocked_time(timestamptz, timestamptz, integer, integer)');

SELECT create_distributed_table('schedules', 'organization_id');
SELECT create_distributed_table('event_types', 'organization_id', colocate_with => 'schedules');
SELECT create_distributed_table('booking_series', 'organization_id', colocate_with => 'schedules');
SELECT create_distributed_table('bookings', 'organization_id', colocate_with => 'schedules');
-- Every holder of a schedule's time (bookings, reservations, published events) under one exclusion
-- constraint. Triggers on bookings, slot_reservations and events keep it in step; each writes rows of
-- the same organization (co-located shards), and they need citus.enable_unsafe_triggers = on.
SELECT create_distributed_function('hold_schedule_time(uuid, uuid, text, uuid, tstzrange, timestamptz, timestamptz)');
SELECT create_distributed_function('release_schedule_time(uuid, text, uuid)');
SELECT create_distributed_table('schedule_blocked_times', 'organization_id', colocate_with => 'schedules');
SELECT create_distributed_table('slot_reservations', 'organization_id', colocate_with => 'schedules');
SELECT create_distributed_table('calendar_feeds', 'organization_id', colocate_with => 'schedules');
SELECT create_distributed_table('calendar_integrations', 'organization_id', colocate_with => 'schedules');
SELECT create_distributed_table('calendar_syncs', 'organization_id', colocate_with => 'schedules');
SELECT create_distributed_table('events', 'organization_id', colocate_with => 'schedules');
SELECT create_distributed_table('event_registrations', 'organization_id', colocate_with => 'schedules');
SELECT create_distributed_table('post_categories', 'organization_id', colocate_with => 'schedules');
SELECT create_distributed_table('post_tags', 'organization_id', colocate_with => 'schedules');
SELECT create_distributed_table('posts', 'organization_id', colocate_with => 'schedules');
SELECT create_distributed_table('post_tag_links', 'organization_id', colocate_with => 'schedules');
SELECT create_distributed_table('post_revisions', 'organization_id', colocate_with => 'schedules');
SELECT create_distributed_table('post_preview_links', 'organization_id', colocate_with => 'schedules');
SELECT create_distributed_table('idempotency_keys', 'organization_id', colocate_with => 'schedules');
SELECT create_distributed_table('outbox_events', 'organization_id', colocate_with => 'schedules');
SELECT create_distributed_table('webhook_endpoints', 'organization_id', colocate_with => 'schedules');
SELECT create_distributed_table('webhook_deliveries', 'organization_id', colocate_with => 'schedules');
-- The audit log's append-only trigger reads organizations, a reference table present on every node.
SELECT create_distributed_table('audit_log', 'organization_id', colocate_with => 'schedules');

-- Views over these tables (identity's user_directory) need nothing: Citus plans them on the coordinator.
