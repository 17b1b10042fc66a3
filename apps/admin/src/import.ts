import { ApiError, call, ImportResult, org, Page, SessionUser, SyncRun } from './api.js';
import { clear, counted, field, h, status, table, when } from './dom.js';

const REASONS: Record<string, string> = {
  duplicate: 'already imported, unchanged',
  cancelled: 'cancelled in the feed',
  free: 'shown as free',
  all_day: 'all-day',
  conflict: 'overlaps a booking',
  invalid: 'unreadable',
};

function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export function counts(result: ImportResult, id?: string): HTMLElement {
  const item = (label: string, value: number, key: string) => h('div', {}, h('dt', {}, label), h('dd', { 'data-count': key }, String(value)));
  const reasons = Object.entries(result.skipped_reasons).filter(([, n]) => n > 0);
  return h(
    'div',
    { id },
    h('dl', { class: 'counts' }, item('Synced', result.synced, 'synced'), item('Skipped', result.skipped, 'skipped'), item('Updated', result.updated, 'updated'), item('Cancelled', result.cancelled, 'cancelled')),
    reasons.length > 0
      ? h('ul', { class: 'reasons' }, ...reasons.map(([reason, n]) => h('li', { 'data-reason': reason }, `${n} skipped: ${REASONS[reason] ?? reason}`)))
      : null,
  );
}

/** The import: a date range, run it, its counts, and the history of past runs. */
export async function importView(main: HTMLElement, user: SessionUser): Promise<void> {
  const today = new Date();
  const start = field('From', { type: 'date', name: 'start', required: true, value: isoDate(today) });
  const end = field('Until (exclusive)', { type: 'date', name: 'end', required: true, value: isoDate(new Date(today.getTime() + 90 * 86_400_000)) });
  const submit = h('button', { type: 'submit' }, 'Run import');
  const result = h('div', { id: 'import-result', 'aria-live': 'polite' });
  const history = h('div', { id: 'import-history' });
  const form = h('form', { id: 'import-form' }, h('div', { class: 'row' }, start.label, end.label), h('div', { class: 'row' }, submit));

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    submit.disabled = true;
    clear(result, h('p', { class: 'muted' }, 'Importing…'));
    call<ImportResult>('POST', '/api/bookings/sync-external', { organizationId: user.organization_id, startDate: start.input.value, endDate: end.input.value })
      .then((answer) => clear(result, status('ok', 'Import finished.'), counts(answer, 'import-counts')))
      .catch((error: unknown) => clear(result, status('error', error instanceof ApiError ? error.describe() : 'The import failed.')))
      .finally(() => {
        submit.disabled = false;
        void refresh();
      });
  });

  async function refresh(): Promise<void> {
    const page = await call<Page<SyncRun>>('GET', `${org(user.organization_id, 'calendar-syncs')}?limit=20`);
    if (page.data.length === 0) return clear(history, h('p', { class: 'muted' }, 'No imports yet.'));
    const rows = page.data.map((run) => [
      when(run.started_at),
      `${run.start_date.slice(0, 10)} → ${run.end_date.slice(0, 10)}`,
      h('span', { class: run.status === 'succeeded' ? 'ok' : 'error' }, run.status),
      run.summary
        ? `${run.summary.synced} synced, ${run.summary.skipped} skipped, ${run.summary.updated} updated, ${run.summary.cancelled} cancelled`
        : `${run.error?.code ?? 'error'}: ${run.error?.message ?? ''}`,
    ]);
    clear(history, h('p', { class: 'muted' }, `${counted(page.meta.total, 'run')}, newest first`), table(['Started', 'Range', 'Status', 'Outcome'], rows));
  }

  clear(
    main,
    h('section', { class: 'card' }, h('h2', {}, 'Import from the external calendar'), form, result),
    h('section', { class: 'card' }, h('h2', {}, 'Past imports'), history),
  );
  await refresh();
}
