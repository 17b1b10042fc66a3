import { AuditEntry, auditActions, call, org, Page, SessionUser } from './api.js';
import { clear, h, table, when } from './dom.js';

const PAGE_SIZE = 50;

function who(entry: AuditEntry): string {
  if (!entry.actor) return '—';
  return entry.actor.type === 'api_key' ? `API key "${entry.actor.name}"` : entry.actor.name;
}

/** The audit log: newest first, filtered by action, a page at a time. */
export async function auditView(main: HTMLElement, user: SessionUser): Promise<void> {
  const base = org(user.organization_id, 'audit-log');
  const select = h('select', { name: 'action', id: 'audit-action' }, h('option', { value: '' }, 'All actions'));
  for (const action of await auditActions()) select.appendChild(h('option', { value: action }, action));
  const list = h('div', { id: 'audit-list', 'aria-live': 'polite' });
  const older = h('button', { type: 'button', class: 'secondary', id: 'audit-older' }, 'Older');
  const newer = h('button', { type: 'button', class: 'secondary', id: 'audit-newer' }, 'Newer');
  let offset = 0;

  async function refresh(): Promise<void> {
    const query = new URLSearchParams({ limit: String(PAGE_SIZE), offset: String(offset) });
    if (select.value) query.set('action', select.value);
    const page = await call<Page<AuditEntry>>('GET', `${base}?${query.toString()}`);
    newer.disabled = offset === 0;
    older.disabled = !page.meta.hasMore;
    if (page.data.length === 0) return clear(list, h('p', { class: 'muted' }, 'Nothing recorded yet.'));
    const rows = page.data.map((entry) => [
      when(entry.at),
      h('span', { 'data-action': entry.action }, entry.action),
      who(entry),
      h('span', { class: 'mono' }, `${entry.target.type} ${entry.target.id}`),
      entry.ip ?? '—',
      entry.request_id ? h('span', { class: 'mono' }, entry.request_id) : '—',
    ]);
    const last = Math.min(offset + page.data.length, page.meta.total);
    const total = `${page.meta.total}${page.meta.total_is_lower_bound ? '+' : ''}`;
    clear(list, h('p', { class: 'muted' }, `${offset + 1}–${last} of ${total} entries, newest first`), table(['When', 'Action', 'Who', 'Target', 'From', 'Request'], rows));
  }

  select.addEventListener('change', () => {
    offset = 0;
    void refresh();
  });
  older.addEventListener('click', () => {
    offset += PAGE_SIZE;
    void refresh();
  });
  newer.addEventListener('click', () => {
    offset = Math.max(0, offset - PAGE_SIZE);
    void refresh();
  });

  clear(
    main,
    h(
      'section',
      { class: 'card' },
      h('h2', {}, 'Audit log'),
      h('p', { class: 'muted' }, 'Who signed in, changed keys, the calendar integration, imports, webhooks, or erased a person. Entries cannot be changed or deleted.'),
      h('label', {}, 'Action', select),
      list,
      h('div', { class: 'row' }, newer, older),
    ),
  );
  await refresh();
}
