import { ApiError, ApiKey, call, org, Page, SessionUser } from './api.js';
import { clear, field, h, status, table, when } from './dom.js';

const SCOPES = ['bookings:read', 'bookings:write', 'events:read', 'events:write', 'posts:read', 'posts:write', 'webhooks:read', 'webhooks:write'];

/** API keys: the list (revoked ones too), a form to create one (the key shown once), revoke. */
export async function keysView(main: HTMLElement, user: SessionUser): Promise<void> {
  const base = org(user.organization_id, 'api-keys');
  const listArea = h('div', { id: 'keys-list' });
  const created = h('div', { id: 'new-key-area' });

  const name = field('Name', { type: 'text', name: 'name', required: true, maxlength: '300' });
  const expires = field('Expires (optional)', { type: 'datetime-local', name: 'expires_at' });
  const boxes = SCOPES.map((scope) => {
    const input = h('input', { type: 'checkbox', name: 'scopes', value: scope });
    return { scope, input, label: h('label', {}, input, scope) };
  });
  const scopes = h('fieldset', {}, h('legend', {}, 'Scopes (none ticked: all of them)'), ...boxes.map((b) => b.label));
  const submit = h('button', { type: 'submit' }, 'Create key');
  const feedback = h('div');
  const form = h('form', { id: 'create-key-form' }, name.label, scopes, expires.label, h('div', { class: 'row' }, submit), feedback);

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    submit.disabled = true;
    clear(feedback);
    const body: { name: string; scopes?: string[]; expires_at?: string } = { name: name.input.value };
    const ticked = boxes.filter((b) => b.input.checked).map((b) => b.scope);
    if (ticked.length > 0) body.scopes = ticked;
    if (expires.input.value) body.expires_at = new Date(expires.input.value).toISOString();
    call<{ data: ApiKey & { key: string } }>('POST', base, body)
      .then(async (answer) => {
        form.reset();
        showSecret(created, answer.data);
        await refresh();
      })
      .catch((error: unknown) => clear(feedback, status('error', error instanceof ApiError ? error.describe() : 'Could not create the key.')))
      .finally(() => (submit.disabled = false));
  });

  async function refresh(): Promise<void> {
    const page = await call<Page<ApiKey>>('GET', `${base}?limit=100`);
    if (page.data.length === 0) return clear(listArea, h('p', { class: 'muted' }, 'No API keys yet.'));
    const rows = page.data.map((key) => {
      const revoke = h('button', { type: 'button', class: 'danger', 'data-revoke': key.id, 'aria-label': `Revoke ${key.name}` }, 'Revoke');
      revoke.addEventListener('click', () => {
        if (!window.confirm(`Revoke "${key.name}"? Requests with it will fail at once.`)) return;
        revoke.disabled = true;
        call<{ data: ApiKey }>('DELETE', `${base}/${encodeURIComponent(key.id)}`)
          .then(() => refresh())
          .catch((error: unknown) => {
            revoke.disabled = false;
            clear(feedback, status('error', error instanceof ApiError ? error.describe() : 'Could not revoke the key.'));
          });
      });
      return [
        key.name,
        h('code', {}, `${key.prefix}…`),
        key.scopes.length === SCOPES.length ? 'all' : key.scopes.join(', '),
        when(key.created_at),
        when(key.last_used_at),
        key.expires_at ? when(key.expires_at) : 'never',
        key.revoked_at ? h('span', { class: 'error', 'data-revoked': key.id }, `revoked ${when(key.revoked_at)}`) : revoke,
      ];
    });
    clear(
      listArea,
      h('p', { class: 'muted' }, `${page.meta.total} key(s)`),
      table(['Name', 'Prefix', 'Scopes', 'Created', 'Last used', 'Expires', 'Status'], rows),
    );
  }

  clear(
    main,
    h('section', { class: 'card' }, h('h2', {}, 'New API key'), form, created),
    h('section', { class: 'card' }, h('h2', {}, 'API keys'), listArea),
  );
  await refresh();
}

/** The new key, this once, with a copy button. */
function showSecret(area: HTMLElement, key: ApiKey & { key: string }): void {
  const value = h('code', { id: 'new-key' }, key.key);
  const copied = h('span', { role: 'status' });
  const copy = h('button', { type: 'button', class: 'secondary', id: 'copy-key' }, 'Copy');
  copy.addEventListener('click', () => {
    navigator.clipboard
      .writeText(key.key)
      .then(() => (copied.textContent = 'Copied.'))
      .catch(() => {
        const range = document.createRange();
        range.selectNodeContents(value);
        window.getSelection()?.removeAllRanges();
        window.getSelection()?.addRange(range);
        copied.textContent = 'Selected: press Ctrl+C to copy.';
      });
  });
  clear(
    area,
    h(
      'div',
      { class: 'secret', role: 'status' },
      h('strong', {}, `Key "${key.name}" created. Copy it now: it is not shown again.`),
      value,
      h('div', { class: 'row' }, copy, copied),
    ),
  );
  copy.focus();
}
